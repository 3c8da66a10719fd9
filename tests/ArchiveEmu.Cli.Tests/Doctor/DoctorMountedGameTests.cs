using System.Diagnostics;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 32: doctor on a game folder a live ArchiveEmu already serves says so, naming the process (pid, start, command line)
/// and advising no unmount under a running game; once that host is killed, the dead mount it left is a warning mount clears.
/// </summary>
[NonParallelizable]
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DoctorMountedGameTests
{
    private TempDirectory _dir = null!;
    private readonly List<Process> _started = [];

    private string Game => _dir["game"];

    [SetUp]
    public void CopyGame()
    {
        LinuxOnly.Require("FUSE");
        CiMachine.Require(File.Exists("/dev/fuse") ? null : "needs /dev/fuse to mount");
        ExternalTool.Require("fusermount3");
        _dir = new TempDirectory("cli-doctor-mounted");
        foreach (var copy in new[] { "game", "other" })
            foreach (var file in Directory.GetFiles(CliRun.Fixture("game"), "*", SearchOption.AllDirectories))
                _dir.Write($"{copy}/" + Path.GetRelativePath(CliRun.Fixture("game"), file), File.ReadAllBytes(file));
    }

    [TearDown]
    public void Unmount()
    {
        foreach (var host in _started)
        {
            if (!host.HasExited)
                host.Kill(entireProcessTree: true);
            host.WaitForExit();
            host.Dispose();
        }
        _started.Clear();
        if (_dir is null)
            return;
        foreach (var folder in new[] { Game, _dir["other"] })
            if (MountedAt(folder))
                ExternalTool.Run("fusermount3", "-u", "-z", folder);
        _dir.Dispose();
    }

    private static bool MountedAt(string folder) => File.ReadLines("/proc/self/mountinfo").Any(l => l.Split(' ')[4] == folder);

    /// <summary><c>archiveemu mount --in-place</c> in a process of its own, once the game folder is mounted.</summary>
    private Process StartInPlaceMount(string game)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in (string[])["exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), "mount", "--game", game,
                     "--mod", CliRun.Fixture("mods/ui-fix"), "--no-cache", "--in-place", "--log-level", "Warning"])
            start.ArgumentList.Add(arg);
        var host = Process.Start(start) ?? throw new InvalidOperationException("could not start archiveemu mount");
        _started.Add(host);
        var clock = Stopwatch.StartNew();
        while (!MountedAt(game))
        {
            if (host.HasExited || clock.Elapsed > TimeSpan.FromSeconds(30))
                Assert.Fail($"the host did not mount: {host.StandardError.ReadToEnd()}");
            Thread.Sleep(50);
        }
        return host;
    }

    [Test]
    public void Doctor_AGameALiveArchiveEmuServes_FailsNamingThePid_NeverAdvisesUnmounting_ThenTheDeadMountIsAWarning()
    {
        StartInPlaceMount(_dir["other"]); // another game served at the same time: not named
        var host = StartInPlaceMount(Game);
        var live = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--game", Game, "--no-cache");
        Assert.That(live.ExitCode, Is.EqualTo(1), live.ToString());
        var line = DoctorRun.Line(live, "game folder not mounted");
        Assert.That(line, Does.StartWith($"FAIL game folder not mounted  {Game}: the game is already served by a running ArchiveEmu (process {host.Id} (")
            .And.Contain("archiveemu.dll mount --game ").And.Match(@"\), since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)$"));
        var fix = DoctorRun.FixOf(live, "game folder not mounted");
        Assert.That(fix, Is.EqualTo("     fix:                     leave it serving: it ends with that process (a run, when its game exits), then launch again"),
            "the host's own line before it mounts in place (MountPlace), word for word");
        Assert.That(live.Out, Does.Not.Contain("unmount"));
        Assert.That(DoctorRun.Line(live, "game folder readable"), Is.EqualTo($"info game folder readable     {Game}: not walked, since something is mounted on it"));

        host.Kill(); // SIGKILL: the mount stays, with nobody serving it
        host.WaitForExit();
        var dead = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--game", Game, "--no-cache");
        Assert.That(DoctorRun.Line(dead, "game folder not mounted"),
            Is.EqualTo($"warn game folder not mounted  {Game}: a dead ArchiveEmu mount is left there (its host ended without unmounting; every read of the folder fails)"));
        Assert.That(dead.ExitCode, Is.Zero, "mount and run clear a dead mount of ArchiveEmu's: " + dead);
    }

    [Test]
    public void Doctor_ThroughALinkedPath_SeesTheMount_AndADeadOneIsNamedWithItsFix_NotAMissingFolder()
    {
        // Issue 48: ~/.steam/steam is a link on every Steam install; mountinfo lists the real path, so doctor said "nothing is
        // mounted" while a run served the game, and once the host was killed (and the kernel's cached attributes expired) the
        // dead mount read as "not found, or not a folder".
        Directory.CreateSymbolicLink(_dir["steam"], _dir.Path);
        var linked = Path.Combine(_dir["steam"], "game");
        var host = StartInPlaceMount(Game);
        var live = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--game", linked, "--no-cache");
        Assert.That(DoctorRun.Line(live, "game folder not mounted"), Does.StartWith($"FAIL game folder not mounted  {linked}: the game is already served by a running ArchiveEmu (process {host.Id} ("), live.ToString());

        host.Kill();
        host.WaitForExit();
        var clock = Stopwatch.StartNew();
        while (Directory.Exists(Game) && clock.Elapsed < TimeSpan.FromSeconds(15))
            Thread.Sleep(200); // until the kernel's cached attributes of the dead mount expire
        Assert.That(Directory.Exists(Game), Is.False, "the dead mount answers ENOTCONN");
        var dead = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--game", linked, "--no-cache");
        Assert.That(DoctorRun.Line(dead, "game folder not mounted"), Does.StartWith($"warn game folder not mounted  {linked}: a dead ArchiveEmu mount is left there"), dead.ToString());
        Assert.That(DoctorRun.FixOf(dead, "game folder not mounted"), Does.EndWith($"archiveemu unmount {linked} (mount and run also clear it before they start)"));
        Assert.That(dead.Out, Does.Not.Contain("not found, or not a folder").And.Not.Contain("chmod"), dead.ToString());
    }

    [Test]
    public void Doctor_SomethingElseMountedOnTheGame_FailsNamingIt()
    {
        CiMachine.RequireRoot("to mount a tmpfs on the game folder");
        var mount = ExternalTool.Run("mount", "-t", "tmpfs", "-o", "size=1m", "doctor-test", Game);
        Assert.That(mount.ExitCode, Is.Zero, mount.ToString());
        CliResult result;
        string? hostRefusal;
        try
        {
            result = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--game", Game, "--no-cache");
            hostRefusal = Host.Fuse.MountPointState.PrepareInPlace(Game, _ => { }); // the host's check before it mounts in place
        }
        finally
        {
            ExternalTool.Run("/bin/umount", "-l", Game);
        }
        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(DoctorRun.Line(result, "game folder not mounted"),
            Is.EqualTo($"FAIL game folder not mounted  {Game}: something else is mounted on it (type tmpfs, source doctor-test)"));
        // Issue 49: one check for both (MountPlace), so they cannot disagree; the host said "something is already mounted there".
        Assert.That(hostRefusal, Is.EqualTo($"{Game}: something else is mounted on it (type tmpfs, source doctor-test); "
            + $"unmount it yourself (fusermount3 -u {Game}, or umount as root) before ArchiveEmu mounts here"));
    }
}
