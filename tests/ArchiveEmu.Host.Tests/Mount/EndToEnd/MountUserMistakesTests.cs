using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 18 for <c>archiveemu mount</c>: a read-only cache folder (every stat of an archive hung two minutes on the writer
/// lock, then EIO) and a mount point inside the game or a mod folder (accepted; <c>find</c> then recursed forever).
/// </summary>
[NonParallelizable]
public sealed class MountUserMistakesTests
{
    private SampleGame _game = null!;
    private ReadOnlyBindMount? _readOnly;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _game = new SampleGame();
        _readOnly = null;
    }

    [TearDown]
    public void CleanUp()
    {
        _readOnly?.Dispose();
        _game?.Dispose();
    }

    [Test]
    public void ReadOnlyCache_WarnsOnce_ServesItsEntries_AndTheRestByEmulation_WritingNothing()
    {
        var build = Archiveemu("build", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache, "--merge", "always");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        // bundle.tar's key changes (a mod file added after the build): a miss the read-only cache cannot store.
        File.WriteAllText(Path.Combine(_game.Mods[1], "data/bundle.tar/d.txt"), "delta, added later\n");
        MakeReadOnly(_game.Cache);
        var before = Snapshot(_game.Cache);

        using var host = _game.StartMount().WaitMounted();
        var reads = Task.Run(() => _game.VisibleFiles.ToDictionary(f => f, f => File.ReadAllBytes(_game.Mounted(f))));
        Assert.That(reads.Wait(TimeSpan.FromSeconds(20)), Is.True, "reading the mount hung:\n" + host.Output);
        foreach (var file in _game.VisibleFiles)
            _game.AssertServes(file, reads.Result[file]);

        var warning = $"{_game.Cache}: the cache folder is on a read-only file system; serving the entries already in it, "
                      + "storing nothing, the rest by emulation";
        Assert.That(host.Output.Split('\n').Count(l => l.Contains("WRN " + warning)), Is.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain("built data/textures.afs: merged, from cache"));
        Assert.That(host.Output, Does.Contain("built data/bundle.tar: emulated"));
        Assert.That(Snapshot(_game.Cache), Is.EqualTo(before), "nothing written into the cache");
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }

    [Test]
    public void ReadOnlyCache_MergeAlways_OneLine_Exit1_NothingMounted()
    {
        MakeReadOnly(_game.Cache);
        // Both mods: they conflict on an entry, and the conflict lines must not come before the refusal.
        using var host = _game.StartMount("--merge", "always");
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
        AssertOneErrorLine(host, $"{_game.Cache}: the cache folder is on a read-only file system; --merge always stores into it: "
                                 + "give a writable folder with --cache DIR, or drop --merge always");
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
        Assert.That(Directory.EnumerateFileSystemEntries(_game.Cache), Is.Empty);
    }

    [Test]
    public void CacheThatIsAFile_OneLine_Exit1_NothingMounted()
    {
        // Issue 48: a file given as --cache was taken for a folder yet to be made, and the mount served "from" it.
        var file = Path.Combine(_game.Root, "cache.txt");
        File.WriteAllText(file, "not a cache\n");
        using var host = HostProcess.StartCli(_game.MountPoint, "mount", "--game", _game.Game, "--mod", _game.Mods[0], "--cache", file, _game.MountPoint);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
        AssertOneErrorLine(host, $"{file}: the cache folder is a file, not a folder; give the cache a folder of its own");
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
        Assert.That(File.ReadAllText(file), Is.EqualTo("not a cache\n"), "the file is left as it was");
    }

    private static readonly string PickElsewhere = "pick a mount point outside the game and mod folders";

    [TestCase("game")]
    [TestCase("mod")]
    [TestCase("game itself")]
    public void MountPointInsideTheGameOrAMod_OneLine_Exit1_NothingMounted(string where)
    {
        var (folder, label) = where switch
        {
            "game" => (Directory.CreateDirectory(Path.Combine(_game.Game, "mnt")).FullName, $"inside the game folder {_game.Game}"),
            "mod" => (Directory.CreateDirectory(Path.Combine(_game.Mods[1], "data", "mnt")).FullName, $"inside the mod folder {_game.Mods[1]}"),
            _ => (_game.Game, $"the game folder {_game.Game} itself"),
        };
        using var host = HostProcess.StartCli(folder, "mount", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", folder);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
        var inPlace = where == "game itself" ? " (or --in-place to mount over the game folder itself)" : "";
        AssertOneErrorLine(host, $"{folder}: the mount point is {label}, so the mount would show itself inside itself; {PickElsewhere}{inPlace}");
        Assert.That(Host.Fuse.MountPointState.IsMounted(folder), Is.False);
    }

    [Test]
    public void MountPointReachingTheGameThroughASymlink_OneLine_Exit1_NothingMounted()
    {
        LinuxOnly.RequireSymlinks();
        var inside = Directory.CreateDirectory(Path.Combine(_game.Game, "data", "mnt")).FullName;
        var link = Path.Combine(_game.Root, "looks-outside");
        Directory.CreateSymbolicLink(link, Path.Combine(_game.Game, "data"));
        var through = Path.Combine(link, "mnt");
        using var host = HostProcess.StartCli(through, "mount", "--game", _game.Game, "--mod", _game.Mods[0], "--no-cache", through);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
        AssertOneErrorLine(host, $"{through}: the mount point is inside the game folder {_game.Game} (it is {inside}), so the mount would "
                                 + $"show itself inside itself; {PickElsewhere}");
        Assert.That(Host.Fuse.MountPointState.IsMounted(inside), Is.False);
    }

    private static void AssertOneErrorLine(HostProcess host, string problem)
    {
        var lines = host.Output.Trim().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(1), host.Output);
        Assert.That(lines[0].Length > 9 ? lines[0][9..] : lines[0], Is.EqualTo($"ERR archiveemu-host: {problem}")); // after "HH:mm:ss "
    }

    private void MakeReadOnly(string folder) => _readOnly = ReadOnlyBindMount.Over(folder);

    /// <summary>Every file and folder under <paramref name="folder"/> with its size and modification time.</summary>
    private static string[] Snapshot(string folder) =>
        Directory.EnumerateFileSystemEntries(folder, "*", SearchOption.AllDirectories)
            .Select(p => $"{Path.GetRelativePath(folder, p)} {(File.Exists(p) ? new FileInfo(p).Length : -1)} {File.GetLastWriteTimeUtc(p):O}")
            .Order(StringComparer.Ordinal).ToArray();

    private static ToolResult Archiveemu(params string[] args) =>
        ArchiveEmuProgram.Run(args);
}
