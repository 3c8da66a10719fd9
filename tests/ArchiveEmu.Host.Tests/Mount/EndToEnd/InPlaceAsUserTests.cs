using System.Diagnostics;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19 as a normal user: the in-place mount through fusermount3 (the host's own protocol on the descriptor it hands back), run as nobody by setpriv from a root test
/// run; then a SIGKILL and <c>archiveemu unmount</c> as that user (fusermount3 -u -z). /dev/fuse is opened up for the test
/// as a desktop distribution has it (0666); this machine (a container) has it 0600.
/// </summary>
[NonParallelizable]
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class InPlaceAsUserTests
{
    private const string Nobody = "65534";
    private SampleGame _game = null!;
    private UnixFileMode _deviceMode;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        if (Environment.UserName != "root")
            Assert.Ignore("running as a normal user already: the libfuse fixtures of InPlaceMountTests and InPlaceRecoveryTests are this case");
        ExternalTool.Require("setpriv"); // to run the host as another user
        ExternalTool.Require("fusermount3");
        _game = new SampleGame();
        var chown = ExternalTool.Run("chown", "-R", $"{Nobody}:{Nobody}", _game.Root);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());
        _deviceMode = File.GetUnixFileMode("/dev/fuse");
        File.SetUnixFileMode("/dev/fuse", _deviceMode | UnixFileMode.OtherRead | UnixFileMode.OtherWrite);
    }

    [TearDown]
    public void DeleteGame()
    {
        if (_game is null)
            return;
        File.SetUnixFileMode("/dev/fuse", _deviceMode);
        if (MountPointState.IsMounted(_game.Game))
            ExternalTool.Run("fusermount3", "-u", "-z", _game.Game);
        _game.Dispose();
    }

    private static ToolResult AsNobody(params string[] command) =>
        ExternalTool.Run("/usr/bin/setpriv", ["--reuid=" + Nobody, "--regid=" + Nobody, "--clear-groups", .. command]);

    /// <summary>The host as nobody, in place; waits for its "mounted" line (root cannot look inside: no allow_other for a user's mount).</summary>
    private HostProcess StartInPlaceAsNobody()
    {
        var host = HostProcess.StartHostAsNobody(_game.Game, _game.Root, [.. _game.HostArgs("never", "--ArchiveEmu:InPlace=true")
            .Where(a => !a.StartsWith("--ArchiveEmu:MountPoint=", StringComparison.Ordinal))]);
        var clock = Stopwatch.StartNew();
        while (!host.Output.Contains("mounted ", StringComparison.Ordinal))
        {
            if (host.HasExited || clock.Elapsed > TimeSpan.FromSeconds(30))
            {
                var output = host.Output;
                host.Dispose();
                Assert.Fail($"the host did not mount as nobody:\n{output}");
            }
            Thread.Sleep(50);
        }
        return host;
    }

    [Test]
    public void AsANormalUser_InPlace_TheGamePathServesTheModdedArchive_ThenSigkill_ArchiveemuUnmountClearsIt()
    {
        var original = _game.CopyGame("original");
        var before = SampleGame.Hashes(_game.Game);
        var copy = Path.Combine(_game.Root, "read-by-nobody.afs"); // the root folder is nobody's (SetUp)

        var host = StartInPlaceAsNobody();
        try
        {
            Assert.That(host.OutputOnce("FUSE protocol through fusermount3", TimeSpan.FromSeconds(10)), Does.Contain("FUSE protocol through fusermount3")); // a detail line, after "mounted"
            var line = File.ReadAllLines("/proc/self/mountinfo").Single(l => l.Split(' ')[4] == _game.Game);
            Assert.That(line, Does.Contain("user_id=65534"), line);
            // Root cannot read the user's mount: nobody copies the file out, and the copy is checked by independent readers.
            var cp = AsNobody("cp", Path.Combine(_game.Game, "data/textures.afs"), copy);
            Assert.That(cp.ExitCode, Is.Zero, $"{cp}\n{host.Output}");
            _game.AssertServes("data/textures.afs", copy, original);

            host.KillHard();
            host.WaitExit(TimeSpan.FromSeconds(10));
            var dead = AsNobody("ls", _game.Game);
            Assert.That(dead.StdErr, Does.Contain("Transport endpoint is not connected"), dead.ToString());

            var unmount = AsNobody([.. ArchiveEmuProgram.CommandLine, "unmount", _game.Game]);
            Assert.That(unmount.ExitCode, Is.Zero, unmount.ToString());
            Assert.That(unmount.StdOut, Does.Contain("unmounted a dead ArchiveEmu mount"));
            Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
            Assert.That(SampleGame.Hashes(_game.Game), Is.EqualTo(before), "nothing in the game folder was written");
        }
        finally
        {
            if (!host.HasExited)
                host.Dispose();
        }
    }

    [Test]
    public void AsANormalUser_Run_TheChildReadsTheModdedGamePath_ItsExitCodeIsRuns_Unmounted()
    {
        var original = _game.CopyGame("original");
        var copy = Path.Combine(_game.Root, "read-by-the-child.afs"); // the root folder is nobody's (SetUp)
        var result = ExternalTool.RunIn(_game.Game, "/usr/bin/setpriv", ["--reuid=" + Nobody, "--regid=" + Nobody, "--clear-groups",
            "env", $"HOME={_game.Root}", $"DOTNET_CLI_HOME={_game.Root}", .. ArchiveEmuProgram.CommandLine,
            "run", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache, "--log-level", "Warning",
            "--", "sh", "-c", $"cp data/textures.afs '{copy}'; id -u; exit 5"]);
        Assert.That(result.ExitCode, Is.EqualTo(5), result.ToString());
        var lines = result.StdOut.Split('\n');
        Assert.That(lines[0], Is.EqualTo(Nobody), result.ToString());
        _game.AssertServes("data/textures.afs", copy, original);
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }
}
