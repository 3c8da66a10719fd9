using System.Text;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount;

/// <summary>
/// Issue 19, <c>mount --ignore-case</c>: the sample game (plus a non-ASCII folder and two names that differ only in case)
/// read through the mount by wrong-case paths. With the option every component is found whatever its case and serves the
/// right-case bytes; without it a wrong-case path is "No such file". Once per transport; the kernel one is started through
/// <c>archiveemu mount --ignore-case</c>, libfuse through the host setting.
/// </summary>
[TestFixture("kernel", true)]
[TestFixture("libfuse", true)]
[TestFixture("kernel", false)]
[TestFixture("libfuse", false)]
[NonParallelizable]
public sealed class IgnoreCaseMountTests(string fuse, bool ignoreCase)
{
    private SampleGame _game = null!;
    private HostProcess _host = null!;

    // Wrong case → the game's spelling; every component of each path is spelled differently somewhere.
    private static readonly (string Asked, string Real)[] Spellings =
    [
        ("DATA/Textures.AFS", "data/textures.afs"), // emulated archive in a game folder
        ("data/README.TXT", "data/readme.txt"),     // whole-file override
        ("Data/UI.zip", "data/ui.zip"),             // untouched game file
        ("EXTRAS/New-Folder/ADDED.txt", "extras/new-folder/added.txt"), // folders only a mod has
        ("Données/É.txt", "données/é.txt"),         // non-ASCII letters, folder and file
        ("DATA/BUNDLE.TAR", "data/bundle.tar"),     // emulated tar
    ];

    [OneTimeSetUp]
    public void MountSampleGame()
    {
        LibFuseProbe.RequireFuse();
        if (fuse == "kernel" && Environment.UserName != "root")
            Assert.Ignore("the host speaks the FUSE protocol itself only as root (mount(2)); the libfuse fixture covers a normal user");
        _game = new SampleGame();
        Directory.CreateDirectory(Path.Combine(_game.Game, "données"));
        File.WriteAllText(Path.Combine(_game.Game, "données", "é.txt"), "accent aigu\n");
        File.WriteAllText(Path.Combine(_game.Game, "data", "Dup.txt"), "upper first\n"); // two names only case tells apart
        File.WriteAllText(Path.Combine(_game.Game, "data", "dup.txt"), "lower\n");
        _host = fuse == "kernel"
            ? HostProcess.StartCli(_game.MountPoint, ["mount", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1],
                "--cache", _game.Cache, "--merge", "never", .. ignoreCase ? new[] { "--ignore-case" } : [], _game.MountPoint])
            : HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never", "--ArchiveEmu:Fuse=libfuse", $"--ArchiveEmu:IgnoreCase={ignoreCase}"));
        _host.WaitMounted();
    }

    [OneTimeTearDown]
    public void Unmount()
    {
        _host?.Dispose();
        _game?.Dispose();
    }

    [Test]
    public void WrongCasePaths_ReadTheSameBytesAsTheGamesSpelling_OrNoSuchFileWithoutTheOption()
    {
        foreach (var (asked, real) in Spellings)
        {
            var expected = File.ReadAllBytes(_game.Mounted(real));
            if (ignoreCase)
                Assert.That(File.ReadAllBytes(_game.Mounted(asked)), Is.EqualTo(expected), asked);
            else
                Assert.That(() => File.ReadAllBytes(_game.Mounted(asked)), Throws.InstanceOf<FileNotFoundException>().Or.InstanceOf<DirectoryNotFoundException>(), asked);
        }
    }

    [Test]
    public void AnEmulatedArchiveFoundByWrongCase_IsTheEmulatedOne_NotTheGamesFile()
    {
        if (!ignoreCase)
            Assert.Ignore("without --ignore-case the wrong spelling is not found (tested above)");
        var emulated = _game.Cat("data/textures.afs");
        Assert.That(emulated, Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"))));
        Assert.That(File.ReadAllBytes(_game.Mounted("DATA/TEXTURES.AFS")), Is.EqualTo(emulated));
        Assert.That(new FileInfo(_game.Mounted("Data/Textures.afs")).Length, Is.EqualTo(emulated.Length), "stat gives the emulated size");
    }

    [Test]
    public void CatByWrongCase_IsCatByTheGamesSpelling()
    {
        if (!ignoreCase)
            Assert.Ignore("without --ignore-case the wrong spelling is not found (tested above)");
        var upper = ExternalTool.Run("cat", _game.Mounted("DATA/TEXTURES.AFS"));
        var lower = ExternalTool.Run("cat", _game.Mounted("data/textures.afs"));
        Assert.That(upper.ExitCode, Is.Zero, upper.ToString());
        Assert.That(upper.StdOut, Is.EqualTo(lower.StdOut));
    }

    [Test]
    public void ListingAFolderByWrongCase_GivesTheGamesSpelling()
    {
        var real = Directory.GetFileSystemEntries(_game.Mounted("données")).Select(Path.GetFileName);
        Assert.That(real, Is.EqualTo(new[] { "é.txt" }));
        if (ignoreCase)
        {
            Assert.That(Directory.GetFileSystemEntries(_game.Mounted("DONNÉES")).Select(Path.GetFileName), Is.EqualTo(new[] { "é.txt" }));
            var upper = Directory.GetFiles(_game.Mounted("DATA")).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
            Assert.That(upper, Is.EqualTo(Directory.GetFiles(_game.Mounted("data")).Select(Path.GetFileName).Order(StringComparer.Ordinal)));
            Assert.That(upper, Is.SupersetOf(new[] { "Dup.txt", "bundle.tar", "dup.txt", "readme.txt", "textures.afs", "ui.zip", "voice.afs" }));
        }
        else
            Assert.That(() => Directory.GetFileSystemEntries(_game.Mounted("DONNÉES")), Throws.InstanceOf<DirectoryNotFoundException>());
        Assert.That(Directory.GetFileSystemEntries(_game.MountPoint).Select(Path.GetFileName).Order(StringComparer.Ordinal),
            Is.EqualTo(new[] { "data", "données", "extras" }), "the root lists the game's spelling, once");
    }

    [Test]
    public void TwoNamesThatDifferOnlyInCase_EachExactNameIsItself_AnotherSpellingIsTheFirstInOrdinalOrder()
    {
        Assert.That(File.ReadAllText(_game.Mounted("data/dup.txt")), Is.EqualTo("lower\n"), "exact match first");
        Assert.That(File.ReadAllText(_game.Mounted("data/Dup.txt")), Is.EqualTo("upper first\n"), "exact match first");
        if (ignoreCase)
            Assert.That(File.ReadAllText(_game.Mounted("DATA/DUP.TXT")), Is.EqualTo("upper first\n"), "'Dup.txt' sorts before 'dup.txt' (ordinal)");
        else
            Assert.That(() => File.ReadAllText(_game.Mounted("data/DUP.TXT")), Throws.InstanceOf<FileNotFoundException>());
    }

    [Test]
    public void BothSpellings_AreOneInode_OnTheKernelTransport()
    {
        if (!ignoreCase || fuse != "kernel")
            Assert.Ignore("libfuse's high-level API numbers its nodes per name: two spellings are two inodes there (README, mount)");
        foreach (var (asked, real) in Spellings)
            Assert.That(Inode(asked), Is.EqualTo(Inode(real)), asked);
        Assert.That(Inode("DATA"), Is.EqualTo(Inode("data")));
    }

    private string Inode(string relative)
    {
        var stat = ExternalTool.Run("stat", "-c", "%i", _game.Mounted(relative));
        Assert.That(stat.ExitCode, Is.Zero, stat.ToString());
        return stat.StdOut.Trim();
    }

    [Test]
    public void AfterAHotReload_AWrongCaseNameOfAChangedArchive_ReadsTheNewVersionAsSoonAsTheRightName()
    {
        if (!ignoreCase)
            Assert.Ignore("without --ignore-case the wrong spelling is not found (tested above)");
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
        if (!ignoreCase)
            Assert.Ignore("without --ignore-case the wrong spelling is not found (tested above)");
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
