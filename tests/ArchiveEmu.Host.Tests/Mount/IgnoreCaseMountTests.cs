using System.Text;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount;

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
        var emulated = _game.Cat("data/textures.afs");
        Assert.That(emulated, Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"))));
        Assert.That(File.ReadAllBytes(_game.Mounted("DATA/TEXTURES.AFS")), Is.EqualTo(emulated));
        Assert.That(new FileInfo(_game.Mounted("Data/Textures.afs")).Length, Is.EqualTo(emulated.Length), "stat gives the emulated size");
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

    [Test]
    public void AfterAHotReload_AWrongCaseNameOfAChangedArchive_ReadsTheNewVersionAsSoonAsTheRightName()
    {
        const string wrong = "Data/TEXTURES.afs";
        var before = File.ReadAllBytes(_game.Mounted(wrong)); // libfuse: this spelling's own inode now holds a size and pages
        File.WriteAllBytes(Path.Combine(_game.Mods[0], "data/textures.afs/0005_hero.dds"), TestData.Random(19, 100_000));
        var after = _game.Cat("data/textures.afs");
        Assert.That(after.Length, Is.Not.EqualTo(before.Length));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!ReadsAs(_game.Mounted("data/textures.afs"), after))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the mount never served the new version:\n{_host.Output}");
            Thread.Sleep(50);
        }
        // The reload invalidated every spelling the mount was asked by, not only the game's: no wait for attributes to expire.
        Assert.That(File.ReadAllBytes(_game.Mounted(wrong)), Is.EqualTo(after));
    }

    private static bool ReadsAs(string path, byte[] expected)
    {
        try
        {
            return File.ReadAllBytes(path).SequenceEqual(expected);
        }
        catch (IOException)
        {
            return false; // until the reload swaps versions, an open gets the previous one, whose changed input makes it EIO
        }
    }

    [Test]
    public void AfterAHotReload_AWrongCaseNameOfTheAddedFile_IsFound()
    {
        Assert.That(File.ReadAllBytes(_game.Mounted("DATA/Readme.txt")), Is.Not.Empty, "the folder's index is built before the reload");
        Assert.That(File.Exists(_game.Mounted("DATA/ADDED-LATER.TXT")), Is.False);
        File.WriteAllText(Path.Combine(_game.Mods[1], "data/added-later.txt"), "hot\n");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!File.Exists(_game.Mounted("DATA/ADDED-LATER.TXT")))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the added file was never found by a wrong-case name:\n{_host.Output}");
            Thread.Sleep(100);
        }
        Assert.That(File.ReadAllText(_game.Mounted("Data/Added-Later.txt"), Encoding.UTF8), Is.EqualTo("hot\n"));
        Assert.That(Directory.GetFiles(_game.Mounted("data")).Select(Path.GetFileName), Does.Contain("added-later.txt"));
    }
}
