using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19, <c>mount --ignore-case</c>: the sample game (plus a non-ASCII folder and two names that differ only in case)
/// read through the mount by wrong-case paths. With the option every component is found whatever its case and serves the
/// right-case bytes; without it a wrong-case path is "No such file". Once per transport; the kernel one is started through
/// <c>archiveemu mount --ignore-case</c>, libfuse through the host setting.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class IgnoreCaseMountTests(string fuse) : CaseMountFixture(fuse, ignoreCase: true)
{
    [Test]
    public void WrongCasePaths_ReadTheSameBytesAsTheGamesSpelling() => WrongCasePaths();

    [Test]
    public void ListingAFolderByWrongCase_GivesTheGamesSpelling() => Listing();

    [Test]
    public void TwoNamesThatDifferOnlyInCase_EachExactNameIsItself_AnotherSpellingIsTheFirstInOrdinalOrder() => TwoNamesThatDifferOnlyInCase();

    [Test]
    public void AnEmulatedArchiveFoundByWrongCase_IsTheEmulatedOne_NotTheGamesFile()
    {
        var served = File.ReadAllBytes(_game.Mounted("DATA/TEXTURES.AFS"));
        Assert.That(served, Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"))));
        _game.AssertServes("data/textures.afs", served);
        Assert.That(new FileInfo(_game.Mounted("Data/Textures.afs")).Length, Is.EqualTo(served.Length), "stat gives the emulated size");
    }

    [Test]
    public void CatByWrongCase_IsCatByTheGamesSpelling()
    {
        var upper = ExternalTool.Run("cat", _game.Mounted("DATA/TEXTURES.AFS"));
        var lower = ExternalTool.Run("cat", _game.Mounted("data/textures.afs"));
        Assert.That(upper.ExitCode, Is.Zero, upper.ToString());
        Assert.That(upper.StdOut, Is.EqualTo(lower.StdOut));
    }

    [Test]
    public void BothSpellings_AreOneFile_OneInodeOnTheKernelTransport()
    {
        foreach (var (asked, real) in Spellings)
        {
            Assert.That(Stat(asked, "%s %F"), Is.EqualTo(Stat(real, "%s %F")), asked);
            // libfuse's high-level API numbers its nodes per name: two spellings are two inodes there (README, mount).
            if (Fuse == "kernel")
                Assert.That(Stat(asked, "%i"), Is.EqualTo(Stat(real, "%i")), asked);
        }
        if (Fuse == "kernel")
            Assert.That(Stat("DATA", "%i"), Is.EqualTo(Stat("data", "%i")));
    }

    private string Stat(string relative, string format)
    {
        var stat = ExternalTool.Run("stat", "-c", format, _game.Mounted(relative));
        Assert.That(stat.ExitCode, Is.Zero, stat.ToString());
        return stat.StdOut.Trim();
    }
}
