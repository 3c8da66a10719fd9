using System.Diagnostics;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19: a host killed with SIGKILL leaves a dead mount over the game folder ("Transport endpoint is not connected");
/// the next in-place mount, or <c>archiveemu unmount DIR</c>, clears it. <c>unmount</c> refuses any mount not ArchiveEmu's.
/// Once per transport.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class InPlaceRecoveryTests(string fuse)
{
    private SampleGame _game = null!;
    private Dictionary<string, string> _before = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireTransport(fuse);
        _game = new SampleGame();
        _before = SampleGame.Hashes(_game.Game);
    }

    [TearDown]
    public void DeleteGame()
    {
        if (_game is not null && (MountPointState.IsMounted(_game.Game) || LibFuseProbe.IsDeadMount(_game.Game)))
            ExternalTool.Run("fusermount3", "-u", "-z", _game.Game); // a dead mount a failed test left
        _game?.Dispose();
    }

    private HostProcess StartInPlace() => _game.StartInPlace(fuse);

    private static ToolResult Cli(params string[] args) =>
        ArchiveEmuProgram.Run(args);

    /// <summary>
    /// Mounts in place, kills the host with SIGKILL and waits until the mount it left is dead. The host is not disposed: that
    /// would clear the dead mount (the tear-down does, if the test does not).
    /// </summary>
    private void LeaveADeadMount()
    {
        var host = StartInPlace();
        host.KillHard();
        host.WaitExit(TimeSpan.FromSeconds(10));
        var clock = Stopwatch.StartNew();
        while (!LibFuseProbe.IsDeadMount(_game.Game))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(10))
                Assert.Fail("the killed host left no dead mount");
            Thread.Sleep(50);
        }
        Assert.That(MountPointState.Find(_game.Game)?.IsArchiveEmu, Is.True);
    }

    // The CLI's mount --in-place clears it before it reads the game folder (issue 48); the host, started alone, as it prepares.
    private void AssertCleared(HostProcess next)
    {
        var cli = $"{_game.Game}: cleared a dead ArchiveEmu mount left there";
        var host = $"{_game.Game}: found a dead FUSE mount of ArchiveEmu's";
        Assert.That(next.OutputOnce(" a dead ", TimeSpan.FromSeconds(5)), Does.Contain(cli).Or.Contain(host));
    }

    [Test]
    public void AfterSigkill_TheNextInPlaceMountClearsTheDeadMount_AndServes()
    {
        var original = _game.CopyGame("original");
        LeaveADeadMount();
        using var next = StartInPlace();
        AssertCleared(next);
        next.WaitMounted(); // the new mount, once the dead one is cleared
        _game.AssertServes("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), original);
        next.Terminate();
        Assert.That(next.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, next.Output);
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before), "nothing in the game folder was written");
    }

    [Test]
    public void AfterSigkill_AndTheKernelsCachedAttributesExpired_TheNextInPlaceMountStillClearsIt()
    {
        // As a relaunch from Steam minutes later: the kernel no longer answers stat from its cache (5 s), so the game
        // folder itself is "Transport endpoint is not connected" — not a missing folder. Waited for as it happens.
        LeaveADeadMount();
        var clock = Stopwatch.StartNew();
        while (Directory.Exists(_game.Game))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(30))
                Assert.Fail("the kernel kept answering stat of the dead mount's folder from its cache for 30 s");
            Thread.Sleep(100);
        }
        using var next = StartInPlace();
        AssertCleared(next);
        next.WaitMounted(); // the new mount, once the dead one is cleared
        Assert.That(File.Exists(Path.Combine(_game.Game, "data/textures.afs")), Is.True);
        next.Terminate();
        Assert.That(next.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, next.Output);
    }

    [Test]
    public void AfterSigkill_ArchiveemuUnmount_ClearsTheDeadMount_TheOriginalsShowAgain()
    {
        LeaveADeadMount();
        var result = Cli("unmount", _game.Game);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.StdOut.TrimEnd(), Is.EqualTo($"{_game.Game}: unmounted a dead ArchiveEmu mount (left by a host that was killed)"));
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
        Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(_before), "the originals, untouched");

        var again = Cli("unmount", _game.Game);
        Assert.That(again.ExitCode, Is.EqualTo(1), again.ToString());
        Assert.That(again.StdErr.TrimEnd(), Is.EqualTo($"archiveemu unmount: {_game.Game}: nothing is mounted there"));
    }

    [Test]
    public void AfterSigkill_ArchiveemuRun_ClearsTheDeadMount_AndItsChildReadsTheModdedGame()
    {
        var original = _game.CopyGame("original");
        LeaveADeadMount();
        var textures = Path.Combine(_game.Game, "data/textures.afs");
        var copy = Path.Combine(_game.Root, "read-by-the-child.afs");
        var run = ArchiveEmuProgram.RunIn(_game.Root, "run",
            "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--", "cp", textures, copy);
        Assert.That(run.ExitCode, Is.Zero, run.ToString());
        // Cleared by run itself before it reads anything through the game folder (issue 48), so the host finds none.
        Assert.That(run.StdErr, Does.Contain($"archiveemu: {_game.Game}: cleared a dead ArchiveEmu mount left there"), run.ToString());
        Assert.That(run.StdOut, Does.Not.Contain("found a dead FUSE mount"));
        _game.AssertServes("data/textures.afs", copy, original);
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void Unmount_ALiveInPlaceMount_TheHostStops()
    {
        using var host = StartInPlace();
        var result = Cli("unmount", _game.Game);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.StdOut, Does.Contain("unmounted the ArchiveEmu mount; its host stops"));
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }
}
