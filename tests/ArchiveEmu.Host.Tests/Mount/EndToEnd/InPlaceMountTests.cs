using System.Diagnostics;
using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19, <c>mount --in-place</c>: the modded game served over the game folder itself, the originals read through a handle
/// taken before mounting. Once per transport (kernel through <c>archiveemu mount --in-place</c>, libfuse through the host
/// setting). What the game path should serve is worked out by independent readers (<see cref="IndependentContent"/>) from a
/// copy of the game taken before mounting (the game path itself is the mount while it runs).
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class InPlaceMountTests(string fuse)
{
    private SampleGame _game = null!;
    private string _original = null!;
    private Dictionary<string, string> _before = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireTransport(fuse);
        _game = new SampleGame();
        _original = _game.CopyGame("original");
        _before = SampleGame.Hashes(_game.Game);
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    private HostProcess StartInPlace() => _game.StartInPlace(fuse);

    [Test]
    public void TheGamePath_ServesTheModdedFiles_UntouchedFilesUnchanged_OriginalsIntactAfterUnmount()
    {
        using (var host = StartInPlace())
        {
            foreach (var file in _game.VisibleFiles)
                _game.AssertServes(file, Path.Combine(_game.Game, file), _original);
            Assert.That(File.ReadAllBytes(Path.Combine(_game.Game, "data/voice.afs")),
                Is.EqualTo(File.ReadAllBytes(Path.Combine(_original, "data/voice.afs"))), "a file no mod touches is the original");
            Assert.That(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs")),
                Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_original, "data/textures.afs"))), "the game path shows the modded archive");
            Assert.That(() => File.WriteAllText(Path.Combine(_game.Game, "data/new.txt"), "x"), Throws.InstanceOf<IOException>()
                .Or.InstanceOf<UnauthorizedAccessException>(), "read-only");

            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
            Assert.That(host.Output, Does.Contain($"mounted {_game.Game} with 2 mod(s) at the game folder itself"));
            Assert.That(host.Output, Does.Not.Contain("/proc/self/fd"), "logs show the user's game path");
        }
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.Game), Is.False);
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before), "nothing in the game folder was written");
    }

    [Test]
    public void HotReload_InPlace_TheGamePathServesTheNewVersion()
    {
        using var host = StartInPlace();
        _game.AssertServes("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), _original);
        File.WriteAllBytes(Path.Combine(_game.Mods[0], "data/textures.afs/0005_hero.dds"), TestSupport.TestData.Random(5, 12_345));
        var clock = Stopwatch.StartNew();
        while (!_game.Serves("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), _original))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the game path never served the new version:\n{host.Output}");
            Thread.Sleep(100);
        }
        Assert.That(host.Output, Does.Contain("hot reload: 1 archive(s)"));
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before), "nothing in the game folder was written");
    }

    [Test]
    public void MergeAlways_TheNextInPlaceMount_ServesTheMergedArchiveFromTheCache()
    {
        for (int start = 0; start < 2; start++)
        {
            using var host = _game.StartInPlace(fuse, "always");
            _game.AssertServes("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), _original);
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
            // The game folder's path through the handle is part of the cache key: the same from one start to the next.
            Assert.That(host.Output, Does.Contain(start == 0 ? "built data/textures.afs: merged, packed now" : "built data/textures.afs: merged, from cache"),
                host.Output);
            Assert.That(host.Output, Does.Not.Contain("(proc)"), "the storage named is the game folder's, not /proc's");
        }
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before), "nothing in the game folder was written");
    }

    [Test]
    public void AGamePathThroughASymlink_MountsOverItsTarget_ServesThroughBoth_AndUnmountByTheLinkClearsIt()
    {
        var link = Path.Combine(_game.Root, "steam-link");
        Directory.CreateSymbolicLink(link, _game.Game); // as ~/.steam/steam leads to ~/.local/share/Steam
        var host = fuse == "kernel"
            ? HostProcess.StartCli(_game.Game, "mount", "--game", link, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--in-place")
            : HostProcess.StartHost(_game.Game, $"--ArchiveEmu:Game={link}", $"--ArchiveEmu:Mods:0={_game.Mods[0]}", $"--ArchiveEmu:Mods:1={_game.Mods[1]}",
                "--ArchiveEmu:NoCache=true", "--ArchiveEmu:InPlace=true", "--ArchiveEmu:Fuse=libfuse");
        using (host.WaitMounted())
        {
            _game.AssertServes("data/textures.afs", Path.Combine(link, "data/textures.afs"), _original);
            _game.AssertServes("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), _original);
            Assert.That(host.Output, Does.Contain($"mounted {link} with 2 mod(s)"), "the game path as the user gave it");
            var unmount = TestSupport.ArchiveEmuProgram.Run("unmount", link);
            Assert.That(unmount.ExitCode, Is.Zero, unmount.ToString());
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
            // Issue 48: an unmount asked for is no warning.
            Assert.That(host.Output, Does.Contain(" INF the mount at ").And.Contain(" was unmounted from outside (archiveemu unmount, fusermount3 -u or umount); stopping"));
            Assert.That(host.Output, Does.Not.Contain(" WRN "));
        }
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.Game), Is.False);
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before));
    }

    [Test]
    public void AGamePathThroughASymlink_TheMountedAndUnmountedLines_NameThePathAsGiven()
    {
        // Issue 48: "mounted" named the link the player typed, "unmounted" the folder it leads to.
        var link = Path.Combine(_game.Root, "steam-link");
        Directory.CreateSymbolicLink(link, _game.Game);
        var host = fuse == "kernel"
            ? HostProcess.StartCli(_game.Game, "mount", "--game", link + "/", "--mod", _game.Mods[0], "--no-cache", "--in-place")
            : HostProcess.StartHost(_game.Game, $"--ArchiveEmu:Game={link}/", $"--ArchiveEmu:Mods:0={_game.Mods[0]}",
                "--ArchiveEmu:NoCache=true", "--ArchiveEmu:InPlace=true", "--ArchiveEmu:Fuse=libfuse");
        using (host.WaitMounted())
        {
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
        }
        var lines = host.Output.Split('\n').Where(l => l.Contains(" INF mounted ") || l.Contains(" INF unmounted ")).Select(l => l[13..]).ToArray();
        Assert.That(lines, Has.Length.EqualTo(2), host.Output);
        Assert.That(lines[0], Is.EqualTo($"mounted {link} with 1 mod(s) at the game folder itself, read-only: hd-textures; "
            + "2 archive(s) changed (data/data.cpk, data/textures.afs), 0 file override(s)"));
        Assert.That(lines[1], Is.EqualTo($"unmounted {link}"));
    }

    [Test]
    public void ACacheFolderInsideTheGame_OneClearLine_Exit1_NothingMounted()
    {
        var inside = Path.Combine(_game.Game, "cache");
        using var host = HostProcess.StartCli(_game.Game, "mount", "--game", _game.Game, "--mod", _game.Mods[0], "--cache", inside, "--in-place");
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain($"{inside}: the cache folder is inside the game folder {_game.Game}, which the in-place mount covers"));
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void InPlaceWithAMountPointToo_UsageError_Exit2()
    {
        using var host = HostProcess.StartCli(_game.MountPoint, "mount", "--game", _game.Game, "--mod", _game.Mods[0], "--in-place", _game.MountPoint);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(2), host.Output);
        Assert.That(host.Error, Does.StartWith("archiveemu mount: --in-place mounts over the game folder itself: give no MOUNTPOINT with it"));
    }
}
