using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 18's mod mistakes through <c>archiveemu mount</c>: a <c>--mod</c> inside the game is refused before anything is
/// mounted; the same mod twice, or a mod inside another, is warned about once on stderr and served as the mods say
/// (checked by independent readers, <see cref="IndependentContent"/>);
/// an index far past an archive's end is logged once per version of the archive, however often it is read.
/// </summary>
[NonParallelizable]
public sealed class MountModMistakesTests
{
    private TempDirectory _dir = null!;

    private string Game => _dir["game"];
    private string MountPoint => _dir["mnt"];

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _dir = new TempDirectory("mount-mod-mistakes");
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write(Enumerable.Range(0, 8).Select(i => (byte[]?)TestData.Random(i, 1000 + i)).ToArray()));
        _dir.Write("game/data/readme.txt", "game"u8.ToArray());
        _dir.Write("mods/a/data/voice.afs/1.bin", TestData.Random(10, 500));
        _dir.Write("mods/b/data/voice.afs/1.bin", TestData.Random(11, 600));
        _dir.Write("mods/a/data/data/readme.txt", "nested"u8.ToArray());
        Directory.CreateDirectory(MountPoint);
    }

    [TearDown]
    public void DeleteGame()
    {
        if (_dir is null)
            return;
        if (MountPointState.IsMounted(MountPoint) || LibFuseProbe.IsDeadMount(MountPoint)) // a host that escaped its test's using
            ExternalTool.Run("fusermount3", "-u", "-z", MountPoint);
        _dir.Dispose();
    }

    [TestCase("game")]
    [TestCase("game/data")]
    public void Mount_AModThatIsTheGameFolderOrInsideIt_IsAUsageError_NothingMounted(string mod)
    {
        using var host = HostProcess.StartCli(MountPoint, "mount", "--game", Game, "--mod", _dir[mod], "--no-cache", MountPoint);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(2), host.Output);
        var lines = host.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(2), host.Output); // the problem, then the usage
        Assert.That(lines[0], Is.EqualTo($"archiveemu mount: --mod {_dir[mod]} is {(mod == "game" ? "the game folder" : "inside the game folder")} "
            + $"{Game}; a mod is a folder of its own that mirrors the game's"));
        Assert.That(host.Output.TrimEnd().Split('\n'), Is.EqualTo(lines), "nothing on stdout: the host never started");
        AssertNothingMounted();
    }

    [Test]
    public void Mount_TheSameModTwice_WarnsOnceOnStderr_AndUsesItOnceAtItsLastPosition()
    {
        string[] mods = ["--mod", _dir["mods/b"], "--mod", _dir["mods/a"], "--mod", _dir["mods/b"] + "/"];
        using var host = HostProcess.StartCli(MountPoint, ["mount", "--game", Game, .. mods, "--no-cache", MountPoint]).WaitMounted();
        var mounted = Path.Combine(MountPoint, "data/voice.afs");
        AssertServes([_dir["mods/a"], _dir["mods/b"]], "data/voice.afs", mounted);
        Assert.That(AfsIndependentReader.Read(mounted)[1].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(TestData.Random(11, 600))),
            "b, given last, wins entry 1");
        AssertOneWarning(host, $"--mod {_dir["mods/b"]} is given twice; it is used once, at its last position (after {_dir["mods/a"]})");
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }

    [Test]
    public void Mount_AModInsideAnotherMod_WarnsOnceOnStderr_AndAppliesBoth()
    {
        string[] mods = ["--mod", _dir["mods/a"], "--mod", _dir["mods/a/data"]];
        using var host = HostProcess.StartCli(MountPoint, ["mount", "--game", Game, .. mods, "--no-cache", MountPoint]).WaitMounted();
        foreach (var file in new[] { "data/voice.afs", "data/readme.txt" })
            AssertServes([_dir["mods/a"], _dir["mods/a/data"]], file, Path.Combine(MountPoint, file));
        Assert.That(File.ReadAllText(Path.Combine(MountPoint, "data/readme.txt")), Is.EqualTo("nested"), "the inner mod's data/readme.txt");
        AssertOneWarning(host, $"--mod {_dir["mods/a/data"]} is inside --mod {_dir["mods/a"]}; its files are applied twice, once under each");
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }

    private const string FarIndexWarning =
        "data/voice.afs: entry 2000 (from m) adds 1992 empty slots after the 8 entries of the original; a typo in the index?";

    [TestCase("2000.bin", 1)]
    [TestCase("9.bin", 0)] // just past the end: nothing to say
    public void Mount_AfsIndexFarPastTheEnd_IsLoggedOnce_HoweverOftenTheArchiveIsStatedAndRead(string entry, int warnings)
    {
        _dir.Write($"mods/m/data/voice.afs/{entry}", TestData.Random(9, 100));
        string[] mods = ["--mod", _dir["mods/m"]];
        using var host = HostProcess.StartCli(MountPoint, ["mount", "--game", Game, .. mods, "--no-cache", MountPoint]).WaitMounted();
        var mounted = Path.Combine(MountPoint, "data/voice.afs");
        for (int i = 0; i < 3; i++)
        {
            Assert.That(new FileInfo(mounted).Length, Is.EqualTo(File.ReadAllBytes(mounted).Length), "stat's size is the size a read gives");
            AssertServes([_dir["mods/m"]], "data/voice.afs", mounted);
        }
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
        var lines = host.Output.Split('\n');
        Assert.That(lines.Count(l => l.Contains("a typo in the index?")), Is.EqualTo(warnings), host.Output);
        if (warnings > 0)
            Assert.That(lines.Count(l => l.Length > 9 && l[9..] == "WRN " + FarIndexWarning), Is.EqualTo(1), host.Output); // after "HH:mm:ss "
        Assert.That(host.Error, Does.Not.Contain("warning"), "the host logs it; the CLI says nothing of its own");
    }

    [Test]
    public void Mount_AfsIndexFarPastTheEnd_IsLoggedAgain_ForANewVersionOfTheArchive()
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 100));
        string[] mods = ["--mod", _dir["mods/m"]];
        using var host = HostProcess.StartCli(MountPoint, ["mount", "--game", Game, .. mods, "--no-cache", MountPoint]).WaitMounted();
        var mounted = Path.Combine(MountPoint, "data/voice.afs");
        AssertServes([_dir["mods/m"]], "data/voice.afs", mounted);

        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(12, 3000)); // a new version: the hot reload rebuilds it
        var expected = IndependentContent.Expected("data/voice.afs", Game, [_dir["mods/m"]]);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (IndependentContent.TryOf("data/voice.afs", mounted)?.SequenceEqual(expected) != true)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the new version never came:\n" + host.Output);
            Thread.Sleep(100);
        }
        for (int i = 0; i < 3; i++)
            AssertServes([_dir["mods/m"]], "data/voice.afs", mounted);
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
        Assert.That(host.Output.Split('\n').Count(l => l.Length > 9 && l[9..] == "WRN " + FarIndexWarning), Is.EqualTo(2), host.Output);
    }

    private static void AssertOneWarning(HostProcess host, string warning)
    {
        var lines = host.Error.Split('\n');
        Assert.That(lines.Count(l => l == $"archiveemu: warning: {warning}"), Is.EqualTo(1), host.Output);
        Assert.That(lines.Count(l => l.Contains("warning")), Is.EqualTo(1), host.Output);
        Assert.That(host.Output.Split('\n').Count(l => l.Contains(warning)), Is.EqualTo(1), "said once, on stderr only:\n" + host.Output);
    }

    private void AssertNothingMounted()
    {
        Assert.That(File.ReadAllLines("/proc/self/mounts").Where(l => l.Split(' ')[1] == MountPoint), Is.Empty);
        Assert.That(MountPointState.IsMounted(MountPoint), Is.False);
        var folder = new DirectoryInfo(MountPoint);
        Assert.That(folder.Exists && folder.LinkTarget is null, Is.True, "still a plain folder");
        Assert.That(folder.EnumerateFileSystemInfos(), Is.Empty);
    }

    /// <summary>The file at <paramref name="served"/> holds what <paramref name="modFolders"/> (lowest priority first) make of <paramref name="relative"/>, by independent readers.</summary>
    private void AssertServes(string[] modFolders, string relative, string served) =>
        Assert.That(IndependentContent.Of(relative, served), Is.EqualTo(IndependentContent.Expected(relative, Game, modFolders)), relative);
}
