using ArchiveEmu.Host.Tests.Mount.EndToEnd;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// The mount of <see cref="IgnoreCaseMountTests"/> and <see cref="CaseSensitiveMountTests"/>: the sample game plus a non-ASCII
/// folder and two names that differ only in case, mounted with or without <c>--ignore-case</c>; the checks both run, each
/// asserting what its setting promises. Its tests only read: a test that changes mod files mounts a game of its own
/// (<see cref="IgnoreCaseHotReloadTests"/>), so no test depends on another's order.
/// </summary>
public abstract class CaseMountFixture(string fuse, bool ignoreCase) : SampleGameMountFixture(fuse)
{
    // Wrong case → the game's spelling; every component of each path is spelled differently somewhere.
    protected static readonly (string Asked, string Real)[] Spellings =
    [
        ("DATA/Textures.AFS", "data/textures.afs"), // emulated archive in a game folder
        ("data/README.TXT", "data/readme.txt"),     // whole-file override
        ("Data/UI.zip", "data/ui.zip"),             // untouched game file
        ("EXTRAS/New-Folder/ADDED.txt", "extras/new-folder/added.txt"), // folders only a mod has
        ("Données/É.txt", "données/é.txt"),         // non-ASCII letters, folder and file
        ("DATA/BUNDLE.TAR", "data/bundle.tar"),     // emulated tar
    ];

    private protected override void Prepare(SampleGame game) => AddCaseNames(game);

    private protected override HostProcess Start(SampleGame game) => StartCaseMount(game, Fuse, ignoreCase);

    /// <summary>A new sample game with the extra names, mounted with or without ignoring case; the kernel transport through the CLI.</summary>
    internal static (SampleGame Game, HostProcess Host) Mount(string fuse, bool ignoreCase)
    {
        LibFuseProbe.RequireTransport(fuse);
        var game = new SampleGame();
        try
        {
            AddCaseNames(game);
            return (game, StartCaseMount(game, fuse, ignoreCase).WaitMounted());
        }
        catch
        {
            game.Dispose(); // WaitMounted stopped the host before failing
            throw;
        }
    }

    private static void AddCaseNames(SampleGame game)
    {
        Directory.CreateDirectory(Path.Combine(game.Game, "données"));
        File.WriteAllText(Path.Combine(game.Game, "données", "é.txt"), "accent aigu\n");
        File.WriteAllText(Path.Combine(game.Game, "data", "Dup.txt"), "upper first\n"); // two names only case tells apart
        File.WriteAllText(Path.Combine(game.Game, "data", "dup.txt"), "lower\n");
    }

    private static HostProcess StartCaseMount(SampleGame game, string fuse, bool ignoreCase) => fuse == "kernel"
        ? game.StartMount(["--merge", "never", .. ignoreCase ? new[] { "--ignore-case" } : []])
        : HostProcess.StartHost(game.MountPoint, game.HostArgs("never", "--ArchiveEmu:Fuse=libfuse", $"--ArchiveEmu:IgnoreCase={ignoreCase}"));

    protected void WrongCasePaths()
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

    protected void Listing()
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
            Is.EqualTo(new[] { "data", "données", "extras", "models" }), "the root lists the game's spelling, once");
    }

    protected void TwoNamesThatDifferOnlyInCase()
    {
        Assert.That(File.ReadAllText(_game.Mounted("data/dup.txt")), Is.EqualTo("lower\n"), "exact match first");
        Assert.That(File.ReadAllText(_game.Mounted("data/Dup.txt")), Is.EqualTo("upper first\n"), "exact match first");
        if (ignoreCase)
            Assert.That(File.ReadAllText(_game.Mounted("DATA/DUP.TXT")), Is.EqualTo("upper first\n"), "'Dup.txt' sorts before 'dup.txt' (ordinal)");
        else
            Assert.That(() => File.ReadAllText(_game.Mounted("data/DUP.TXT")), Throws.InstanceOf<FileNotFoundException>());
    }
}
