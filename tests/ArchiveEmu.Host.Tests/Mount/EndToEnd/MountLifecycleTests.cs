using System.Diagnostics;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>The mount's life: `archiveemu mount` with merging, SIGTERM, hot reload (under load: <see cref="HotReloadStressTests"/>), a dead mount left by a crash, a busy mount point.</summary>
[NonParallelizable]
public sealed class MountLifecycleTests : FreshSampleGameTests
{
    [Test]
    public void ArchiveemuMount_MergeAlways_ServesTheModdedFiles_AndUnmountsWithin5sOfSigterm()
    {
        using var host = _game.StartMount("--merge", "always").WaitMounted();
        foreach (var file in _game.VisibleFiles)
            _game.AssertServes(file, _game.Mounted(file));

        var clock = Stopwatch.StartNew();
        host.Terminate();
        int code = host.WaitExit(TimeSpan.FromSeconds(5));
        Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(5)));
        Assert.That(code, Is.Zero, host.Output);
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
        Assert.That(host.Output, Does.Contain("built data/textures.afs: merged"));
        Assert.That(host.Output, Does.Contain("read statistics data/textures.afs"));
        Assert.That(host.Output, Does.Contain("unmounted"));
        // --compress auto by default, as for build: decided once, logged with its figures, and stored as logged
        var said = host.Output.Split('\n').Single(l => l.Contains("compression: ", StringComparison.Ordinal));
        Assert.That(said, Does.Contain("cache device reads").Or.Contain("cache device speed not measured"));
        string codec = said.Contains(": lz4", StringComparison.Ordinal) ? "lz4" : "none";
        Assert.That(new Core.MergedCache.MergedFileCache(_game.Cache).Entries().Select(e => e.Merged?.Compression), Has.Some.EqualTo(codec), said);
    }

    [TestCase("never")]
    [TestCase("always")]
    public void ArchiveemuMount_ModsGivenAgainstTheirNameOrder_TheLaterGivenWins(string merge)
    {
        // ui-fix first, hd-textures last: hd-textures sorts first by name but must win entry 3, emulated or merged.
        using var host = HostProcess.StartCli(_game.MountPoint, "mount", "--game", _game.Game, "--mod", _game.Mods[1], "--mod", _game.Mods[0],
            "--cache", _game.Cache, "--merge", merge, _game.MountPoint).WaitMounted();
        var entry3 = TestSupport.AfsIndependentReader.Read(_game.Mounted("data/textures.afs"))[3].Sha256;
        var hd = TestSupport.AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(_game.Mods[0], "data/textures.afs/3.dds")));
        Assert.That(entry3, Is.EqualTo(hd), host.Output);
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
    }

    [Test]
    public void ArchiveemuMount_CompressNone_PacksRawChunksLikeBuild()
    {
        using (var host = _game.StartMount("--merge", "always", "--compress", "none").WaitMounted())
        {
            _game.AssertServes("data/textures.afs", _game.Mounted("data/textures.afs"));
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
        }
        var merged = new Core.MergedCache.MergedFileCache(_game.Cache).Entries().Where(e => e.Merged is not null).ToList();
        Assert.That(merged, Is.Not.Empty);
        Assert.That(merged.Select(e => e.Merged!.Compression), Is.All.EqualTo("none"));
    }

    [TestCase("never")]
    [TestCase("always")]
    public void HotReload_ModFileRewritten_NewOpensSeeNewBytes_OldHandleStaysConsistentOrFails(string merge)
    {
        using var host = HostProcess.StartHost(_game.MountPoint, _game.HostArgs(merge)).WaitMounted();
        var before = File.ReadAllBytes(_game.Mounted("data/textures.afs"));
        _game.AssertServes("data/textures.afs", before);
        using var old = new FileStream(_game.Mounted("data/textures.afs"), FileMode.Open, FileAccess.Read, FileShare.Read, 1);
        var head = new byte[4096];
        old.ReadExactly(head);
        Assert.That(head, Is.EqualTo(before[..4096]));

        File.WriteAllBytes(Path.Combine(_game.Mods[0], "data/textures.afs/0005_hero.dds"), TestSupport.TestData.Random(5, 12_345)); // in place
        var clock = Stopwatch.StartNew();
        while (!_game.Serves("data/textures.afs", _game.Mounted("data/textures.afs")))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the mount never served the new version:\n{host.Output}");
            Thread.Sleep(100);
        }

        // The handle opened before the change: the old bytes, or an I/O error — never a mix.
        var rest = new MemoryStream();
        try
        {
            old.CopyTo(rest);
            Assert.That(rest.ToArray(), Is.EqualTo(before[4096..]));
        }
        catch (IOException)
        {
            Assert.That(before[4096..].AsSpan().StartsWith(rest.ToArray()), "bytes read before the error are the old version's");
            // Passed through, the old version is a private copy nothing rewrites, on a node of its own with its own size:
            // it must read to its end. (Emulated, it reads the rewritten mod file, so it must fail instead.)
            if (merge == "always")
                Assert.That(host.Output, Does.Not.Contain("FUSE protocol, passthrough on"), $"a passed-through old version failed:\n{host.Output}");
        }
        Assert.That(host.Output, Does.Contain("hot reload: 1 archive(s)"));
        Assert.That(host.Output.Split("built data/textures.afs").Length - 1, Is.EqualTo(2), host.Output);

        // A file a mod adds appears (listing and bytes) once the reload has run.
        File.WriteAllText(Path.Combine(_game.Mods[1], "data/added-later.txt"), "hot\n");
        clock.Restart();
        while (!Directory.GetFiles(_game.Mounted("data")).Select(Path.GetFileName).Contains("added-later.txt"))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the added file never appeared:\n{host.Output}");
            Thread.Sleep(100);
        }
        Assert.That(File.ReadAllText(_game.Mounted("data/added-later.txt")), Is.EqualTo("hot\n"));
    }

    [Test]
    public void DeadMountLeftByAKilledHost_IsUnmountedAndReplacedOnTheNextStart()
    {
        using (var crashed = HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never")).WaitMounted())
        {
            crashed.KillHard();
            crashed.WaitExit(TimeSpan.FromSeconds(5));
            Assert.That(LibFuseProbe.IsDeadMount(_game.MountPoint), Is.True);
            using var next = HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never")).WaitMounted();
            Assert.That(File.ReadAllBytes(_game.Mounted("data/voice.afs")), Is.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, "data/voice.afs"))));
            Assert.That(next.Output, Does.Contain("found a dead FUSE mount"));
        }
    }

    [TestCase("auto", "FUSE protocol through fusermount3, reads through the page cache")]
    [TestCase("libfuse", "libfuse, reads through the page cache")]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public void ANormalUser_MountsThroughFusermount3_ReadsTheModdedBytes_AndSigtermUnmounts(string fuse, string transport)
    {
        if (Environment.UserName != "root")
            Assert.Ignore("running as a normal user, every other mount test is already this case");
        ExternalTool.Require("setpriv"); // to run the host as another user
        ExternalTool.Require("fusermount3");
        var copies = _game.VisibleFiles.ToDictionary(f => f, f => Path.Combine(_game.Root, "copies", f.Replace('/', '_')));
        Directory.CreateDirectory(Path.Combine(_game.Root, "copies"));
        var chown = ExternalTool.Run("chown", "-R", "65534:65534", _game.Root);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());

        // fusermount3 (setuid root) mounts for the user, but libfuse first opens /dev/fuse as the user: a desktop
        // distribution makes it 0666; this machine (a container) has it 0600, so it is opened up for this test only.
        var deviceMode = File.GetUnixFileMode("/dev/fuse");
        HostProcess? host = null;
        try
        {
            File.SetUnixFileMode("/dev/fuse", deviceMode | UnixFileMode.OtherRead | UnixFileMode.OtherWrite);
            host = HostProcess.StartHostAsNobody(_game.MountPoint, _game.Root, _game.HostArgs("always", $"--ArchiveEmu:Fuse={fuse}"));
            var clock = Stopwatch.StartNew();
            while (!host.Output.Contains("mounted ", StringComparison.Ordinal)) // root cannot look inside: no allow_other
            {
                if (host.HasExited || clock.Elapsed > TimeSpan.FromSeconds(30))
                    Assert.Fail($"the host did not mount as nobody:\n{host.Output}");
                Thread.Sleep(50);
            }
            Assert.That(host.OutputOnce(transport, TimeSpan.FromSeconds(10)), Does.Contain(transport)); // a detail line, after "mounted"
            var line = File.ReadAllLines("/proc/self/mountinfo").Single(l => l.Split(' ')[4] == _game.MountPoint);
            Assert.That(line, Does.Contain("user_id=65534"), line);

            // Root cannot read the mount: nobody copies each file out, and the copies are checked by independent readers.
            foreach (var (file, copy) in copies)
            {
                var cp = ExternalTool.Run("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cp", _game.Mounted(file), copy);
                Assert.That(cp.ExitCode, Is.Zero, $"{file}: {cp}\n{host.Output}");
                _game.AssertServes(file, copy);
            }

            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
            Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False, host.Output);
        }
        finally
        {
            File.SetUnixFileMode("/dev/fuse", deviceMode);
            host?.Dispose();
        }
    }

    [Test]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public void ANormalUser_WhoCannotOpenDevFuse_OneLineWithDoctorsReasonAndFix_Exit1_NothingMounted()
    {
        if (Environment.UserName != "root")
            Assert.Ignore("needs root to run the host as another user");
        ExternalTool.Require("setpriv");
        ExternalTool.Require("fusermount3");
        var chown = ExternalTool.Run("chown", "-R", "65534:65534", _game.Root);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());
        var deviceMode = File.GetUnixFileMode("/dev/fuse");
        try
        {
            // The device closed to others: the host's pre-mount check (the list doctor shows, issue 49) says so before fusermount3 runs,
            // in doctor's words and with its fix (issue 48: run under Steam gave the reason and no way out).
            File.SetUnixFileMode("/dev/fuse", UnixFileMode.UserRead | UnixFileMode.UserWrite);
            using var host = HostProcess.StartHostAsNobody(_game.MountPoint, _game.Root, _game.HostArgs("never"));
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
            var lines = host.Output.Trim().Split('\n').Where(l => !l.Contains(" INF ", StringComparison.Ordinal)).ToArray();
            Assert.That(lines, Has.Length.EqualTo(1), host.Output);
            Assert.That(lines[0], Does.EndWith("archiveemu-host: /dev/fuse cannot be opened read-write by this user (Permission denied); let this user use it "
                + "(desktop distributions ship it as crw-rw-rw-: sudo chmod 0666 /dev/fuse), or run as root"), host.Output);
            Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
        }
        finally
        {
            File.SetUnixFileMode("/dev/fuse", deviceMode);
        }
    }

    [Test]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public void ANormalUser_WhomFusermount3Refuses_OneLineWithItsReason_Exit1_NothingMounted()
    {
        if (Environment.UserName != "root")
            Assert.Ignore("needs root to run the host as another user");
        ExternalTool.Require("setpriv");
        ExternalTool.Require("fusermount3");
        var chown = ExternalTool.Run("chown", "-R", "65534:65534", _game.Root);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());
        // fusermount3 mounts only where the calling user may write: a mount point left to root refuses, and it says why.
        Assert.That(ExternalTool.Run("chown", "0:0", _game.MountPoint).ExitCode, Is.Zero);
        File.SetUnixFileMode(_game.MountPoint, (UnixFileMode)0b111_101_101);
        var deviceMode = File.GetUnixFileMode("/dev/fuse");
        try
        {
            // The device open to every user, as desktop distributions and SteamOS ship it (a container may not), so the pre-mount check passes.
            File.SetUnixFileMode("/dev/fuse", (UnixFileMode)0b110_110_110);
            using var host = HostProcess.StartHostAsNobody(_game.MountPoint, _game.Root, _game.HostArgs("never"));
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1), host.Output);
            var lines = host.Output.Trim().Split('\n').Where(l => !l.Contains(" INF ", StringComparison.Ordinal)).ToArray();
            Assert.That(lines, Has.Length.EqualTo(1), host.Output);
            Assert.That(lines[0], Does.Contain($"{_game.MountPoint}: fusermount3 could not mount here: ").And.Contain("write access"), host.Output);
            Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
        }
        finally
        {
            File.SetUnixFileMode("/dev/fuse", deviceMode);
        }
    }

    [Test]
    public void MountPointNotEmpty_OneClearLine_Exit1()
    {
        File.WriteAllText(Path.Combine(_game.MountPoint, "something"), "x");
        using var host = HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never"));
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1));
        Assert.That(host.Output.Trim().Split('\n'), Has.Length.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain("mount point is not empty"));
    }

    [Test]
    public void MountPointAlreadyMounted_OneClearLine_Exit1()
    {
        using var first = HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never")).WaitMounted();
        using var second = HostProcess.StartHost(_game.MountPoint, _game.HostArgs("never"));
        Assert.That(second.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1));
        Assert.That(second.Output.Trim().Split('\n'), Has.Length.EqualTo(1), second.Output);
        Assert.That(second.Output, Does.Contain("already mounted there (busy)"));
        Assert.That(File.Exists(_game.Mounted("data/voice.afs")), Is.True, "the first mount is untouched");
    }

    [Test]
    public void GameFolderMissing_OneClearLine_Exit1()
    {
        using var host = HostProcess.StartHost(_game.MountPoint, [.. _game.HostArgs("never"), "--ArchiveEmu:Game=/nonexistent/game"]);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1));
        Assert.That(host.Output.Trim().Split('\n'), Has.Length.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain("/nonexistent/game: game folder not found"));
    }

    [Test]
    public void ModTargetingAFileThatIsNoArchive_OneClearLine_Exit1_NothingMounted()
    {
        var bad = Path.Combine(_game.Root, "bad-mod");
        Directory.CreateDirectory(Path.Combine(bad, "data/readme.txt"));
        File.WriteAllText(Path.Combine(bad, "data/readme.txt/1.bin"), "x");
        using var host = HostProcess.StartHost(_game.MountPoint, [.. _game.HostArgs("never"), $"--ArchiveEmu:Mods:2={bad}"]);
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(30)), Is.EqualTo(1));
        Assert.That(host.Output.Trim().Split('\n'), Has.Length.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain("not an archive format"));
        Assert.That(Host.Fuse.MountPointState.IsMounted(_game.MountPoint), Is.False);
    }
}
