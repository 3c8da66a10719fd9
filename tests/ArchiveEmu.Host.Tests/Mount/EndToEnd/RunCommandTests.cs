using System.Diagnostics;
using System.Security.Cryptography;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19, <c>archiveemu run … -- COMMAND</c>: a real child program started in the game folder reads the game path
/// (modded: the copy it makes is checked by independent readers against a copy of the game, <see cref="IndependentContent"/>), gets stdin and the environment, and its exit code is archiveemu's; SIGTERM, SIGINT, SIGHUP and SIGQUIT to
/// archiveemu reach the child, which still reads the modded game, and the mount is gone once archiveemu has exited.
/// </summary>
[NonParallelizable]
public sealed partial class RunCommandTests
{
    private SampleGame _game = null!;
    private string _original = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _game = new SampleGame();
        _original = _game.CopyGame("original");
    }

    private readonly List<Process> _started = [];

    [TearDown]
    public void DeleteGame()
    {
        foreach (var run in _started)
        {
            if (!run.HasExited)
                run.Kill(entireProcessTree: true); // a test that failed half-way
            run.WaitForExit();
            run.Dispose();
        }
        _started.Clear();
        if (_game is not null && (MountPointState.IsMounted(_game.Game) || LibFuseProbe.IsDeadMount(_game.Game)))
            ExternalTool.Run("fusermount3", "-u", "-z", _game.Game);
        _game?.Dispose();
    }

    /// <summary><c>archiveemu run</c> in the game folder (as Steam starts a game), stdout and stderr captured, stdin a pipe.</summary>
    private Process StartRun(IDictionary<string, string>? environment, params string[] command)
    {
        var info = ArchiveEmuProgram.StartInfo(["run", "--game", _game.Game,
            "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--log-level", "Warning", "--", .. command]);
        // Through env(1) with the signals' default actions, as Steam starts a game: a test runner started in the background
        // ignores SIGINT and SIGQUIT (nohup: SIGHUP), the ignoring is inherited, and the child's trap could not take them.
        info.ArgumentList.Insert(0, info.FileName);
        info.ArgumentList.Insert(0, "--default-signal=INT,QUIT,HUP,TERM");
        info.FileName = "env";
        info.WorkingDirectory = _game.Game;
        info.RedirectStandardInput = true;
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
            info.Environment[name] = value;
        var run = Process.Start(info)!;
        _started.Add(run);
        return run;
    }

    private static (int Code, string Out, string Error) Finish(Process run, TimeSpan timeout)
    {
        var output = run.StandardOutput.ReadToEndAsync();
        var error = run.StandardError.ReadToEndAsync();
        if (!run.WaitForExit(timeout))
        {
            run.Kill(entireProcessTree: true);
            Assert.Fail($"archiveemu run still running after {timeout.TotalSeconds} s");
        }
        // A child still holding the pipes after archiveemu exited outlived it: a failure, not a hang.
        if (!Task.WaitAll([output, error], TimeSpan.FromSeconds(10)))
            Assert.Fail($"archiveemu exited ({run.ExitCode}) but its child still runs");
        return (run.ExitCode, output.Result, error.Result);
    }

    private static string Sha256(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));

    /// <summary>Where the child copies the game path's archive to: a folder anyone may write (the child may run as nobody).</summary>
    private string ChildCopy()
    {
        var folder = Path.Combine(_game.Root, "from-the-child");
        Directory.CreateDirectory(folder);
        var chmod = ExternalTool.Run("chmod", "a+rwx", folder);
        Assert.That(chmod.ExitCode, Is.Zero, chmod.ToString());
        return Path.Combine(folder, "textures.afs");
    }

    [Test]
    public void TheChildReadsTheModdedGamePath_GetsStdinAndTheEnvironment_AndItsExitCodeIsRuns()
    {
        var copy = ChildCopy();
        var run = StartRun(new Dictionary<string, string> { ["ARCHIVEEMU_TEST_VALUE"] = "passed through" },
            "sh", "-c", $"cp data/textures.afs '{copy}' && echo copied; read line; echo \"stdin: $line\"; echo \"env: $ARCHIVEEMU_TEST_VALUE\"; echo \"cwd: $(pwd)\"; exit 7");
        run.StandardInput.WriteLine("hello child");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run, TimeSpan.FromSeconds(60));
        Assert.That(code, Is.EqualTo(7), $"{output}\n{error}");
        var lines = output.Split('\n');
        Assert.That(lines[0], Is.EqualTo("copied"), $"{output}\n{error}");
        _game.AssertServes("data/textures.afs", copy, _original);
        Assert.That(lines, Does.Contain("stdin: hello child"));
        Assert.That(lines, Does.Contain("env: passed through"));
        Assert.That(lines, Does.Contain($"cwd: {_game.Game}"));
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False, "unmounted once the child exited");
        Assert.That(Sha256(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"))),
            Is.EqualTo(Sha256(File.ReadAllBytes(Path.Combine(_original, "data/textures.afs")))), "the original, untouched");
    }

    [TestCase(15, "TERM")]
    [TestCase(2, "INT")]
    [TestCase(1, "HUP")]
    [TestCase(3, "QUIT")]
    public void ASignalToArchiveemu_ReachesTheChild_WhichStillReadsTheModdedGame_ThenTheMountIsGone(int signal, string name)
    {
        var copy = ChildCopy();
        // The child reads the game folder after the signal: the mount stays until the command exits.
        var run = StartRun(null, "sh", "-c",
            $"trap 'echo child got {name}; cp data/textures.afs \"{copy}\" && echo copied; exit 3' {name}; echo ready $$; while :; do sleep 0.1; done");
        var first = run.StandardOutput.ReadLineAsync();
        if (!first.Wait(TimeSpan.FromSeconds(60)) || first.Result?.StartsWith("ready ", StringComparison.Ordinal) != true)
        {
            run.Kill(entireProcessTree: true);
            Assert.Fail($"the child never started: {run.StandardError.ReadToEnd()}");
        }
        int child = int.Parse(first.Result![6..], System.Globalization.CultureInfo.InvariantCulture);
        Assert.That(MountPointState.IsMounted(_game.Game), Is.True, "mounted before the child starts");
        Assert.That(Kill(run.Id, signal), Is.Zero);
        (int code, string output, string error) result;
        try
        {
            result = Finish(run, TimeSpan.FromSeconds(15));
        }
        finally
        {
            Kill(child, 9); // a child archiveemu left behind (a signal that killed archiveemu instead) must not outlive the test
        }
        var (code, output, error) = result;
        var lines = output.Split('\n');
        Assert.That(lines[0], Is.EqualTo($"child got {name}"), error);
        Assert.That(lines[1], Is.EqualTo("copied"), $"the game path still readable after the signal\n{error}");
        _game.AssertServes("data/textures.afs", copy, _original); // the modded archive: still mounted
        Assert.That(code, Is.EqualTo(3), $"{output}\n{error}");
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void AChildKilledBySignal_Is128PlusTheSignal()
    {
        var run = StartRun(null, "sh", "-c", "kill -KILL $$");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run, TimeSpan.FromSeconds(60));
        Assert.That(code, Is.EqualTo(128 + 9), $"{output}\n{error}");
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void AProgramThatDoesNotExist_OneLine_Exit127_Unmounted()
    {
        var run = StartRun(null, "/no/such/program");
        run.StandardInput.Close();
        var (code, _, error) = Finish(run, TimeSpan.FromSeconds(60));
        Assert.That(code, Is.EqualTo(127), error);
        Assert.That(error, Does.Contain("archiveemu run: /no/such/program: cannot start it"));
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void UnderSudo_TheChildRunsAsTheCallingUser()
    {
        CiMachine.RequireRoot("sudo's rule applies to a run as root");
        ExternalTool.Require("setpriv");
        var copy = ChildCopy();
        var run = StartRun(new Dictionary<string, string> { ["SUDO_UID"] = "65534", ["SUDO_GID"] = "65534", ["SUDO_USER"] = "nobody" },
            "sh", "-c", $"echo \"$(id -u) $(id -g) $USER\"; echo \"$(id -G)|$HOME|$LOGNAME\"; cp data/textures.afs '{copy}' && echo copied");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run, TimeSpan.FromSeconds(60));
        Assert.That(code, Is.Zero, $"{output}\n{error}");
        var lines = output.Split('\n');
        Assert.That(lines[0], Is.EqualTo("65534 65534 nobody"), error);
        // The user's own groups, home and login name, as the system's account database gives them (id, getent: not ours).
        var home = ExternalTool.Run("getent", "passwd", "nobody").StdOut.Trim().Split(':')[5];
        Assert.That(lines[1], Is.EqualTo($"{ExternalTool.Run("id", "-G", "nobody").StdOut.Trim()}|{home}|nobody"), error);
        Assert.That(lines[2], Is.EqualTo("copied"), $"the user reads the root-made mount (allow_other)\n{error}");
        _game.AssertServes("data/textures.afs", copy, _original);
    }

    [System.Runtime.InteropServices.LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);
}
