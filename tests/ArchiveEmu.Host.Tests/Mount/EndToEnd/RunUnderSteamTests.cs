using System.Diagnostics;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 32, <c>archiveemu run</c> as Steam starts it (in the game folder, <c>-- %command%</c>): no --game means the working
/// folder, names are found whatever their case; the host's own lines land in the run's log; a second run on a game a live
/// ArchiveEmu serves says which process and since when, never advises unmounting it, and leaves the first mount serving.
/// </summary>
[NonParallelizable]
public sealed class RunUnderSteamTests
{
    private SampleGame _game = null!;
    private string _original = null!;
    private readonly List<Process> _started = [];

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _game = new SampleGame();
        _original = _game.CopyGame("original");
    }

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

    private string Logs => Path.Combine(_game.Root, "state", "archiveemu", "logs");

    /// <summary><c>archiveemu run ARGS</c> in the game folder, its logs under the sample's folder, stdin a pipe.</summary>
    private Process StartRun(params string[] args)
    {
        var info = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = _game.Game,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in (string[])["exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), "run", .. args])
            info.ArgumentList.Add(arg);
        info.Environment["XDG_STATE_HOME"] = Path.Combine(_game.Root, "state");
        foreach (var name in new[] { "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS" })
            info.Environment.Remove(name); // no desktop notices from a test
        var run = Process.Start(info)!;
        _started.Add(run);
        return run;
    }

    private static (int Code, string Out, string Error) Finish(Process run)
    {
        var output = run.StandardOutput.ReadToEndAsync();
        var error = run.StandardError.ReadToEndAsync();
        if (!run.WaitForExit(TimeSpan.FromSeconds(60)))
        {
            run.Kill(entireProcessTree: true);
            Assert.Fail("archiveemu run still running after 60 s");
        }
        return (run.ExitCode, output.Result, error.Result);
    }

    /// <summary>Reads <paramref name="run"/>'s stdout up to the line <paramref name="expected"/>; fails (and stops it) after 60 s or at its end.</summary>
    private static void WaitForLine(Process run, string expected)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            var line = run.StandardOutput.ReadLineAsync();
            var left = deadline - DateTime.UtcNow;
            if (left <= TimeSpan.Zero || !line.Wait(left) || line.Result is null)
            {
                run.Kill(entireProcessTree: true);
                Assert.Fail($"never printed '{expected}': {run.StandardError.ReadToEnd()}");
            }
            if (line.Result == expected)
                return;
        }
    }

    /// <summary>Where the child copies what it read: outside game and mods, checked afterwards by independent readers.</summary>
    private string ChildCopy => Path.Combine(_game.Root, "from-the-child.afs");

    [Test]
    public void WithoutGame_TheWorkingFolderIsServed_WrongCaseNamesFound_TheHostLogsIntoTheRunsLog()
    {
        var run = StartRun("--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--", "sh", "-c", $"cp DATA/Textures.AFS '{ChildCopy}'");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run);
        Assert.That(code, Is.Zero, $"{output}\n{error}");
        _game.AssertServes("data/textures.afs", ChildCopy, _original); // the modded archive, asked in another letter case
        var log = File.ReadAllLines(Directory.GetFiles(Logs).Single());
        Assert.That(log, Has.Some.Contains($" INF mounted {_game.Game} with 2 mod(s) at the game folder itself"));
        Assert.That(log, Has.Some.EndsWith(" INF mount detail: cache off, merge auto; FUSE protocol, passthrough on; names found whatever their case"));
        Assert.That(log, Has.Some.EndsWith(" sh exited with code 0"), "the CLI's lines and the host's in one file");
    }

    [Test]
    public void WithCaseSensitive_AWrongCaseNameIsNotFound()
    {
        var run = StartRun("--mod", _game.Mods[0], "--no-cache", "--case-sensitive", "--", "sh", "-c", "test -e DATA/Textures.AFS || exit 9");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run);
        Assert.That(code, Is.EqualTo(9), $"{output}\n{error}");
    }

    [Test]
    public void ASecondRun_SaysWhichArchiveemuServesTheGameAndSinceWhen_NeverAdvisesUnmounting_TheFirstGoesOn()
    {
        var first = StartRun("--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--", "sh", "-c", $"echo ready; read line; cp data/textures.afs '{ChildCopy}'");
        WaitForLine(first, "ready"); // after the host's own lines on the same stdout
        var since = DateTime.Now;

        var second = StartRun("--mod", _game.Mods[0], "--no-cache", "--", "sh", "-c", "echo second started");
        second.StandardInput.Close();
        var (code, output, error) = Finish(second);
        Assert.That(code, Is.EqualTo(1), $"{output}\n{error}");
        Assert.That(output + error, Does.Not.Contain("second started"));
        Assert.That(output + error, Does.Not.Contain("unmount"));
        var line = output.Split('\n').Single(l => l.Contains(" ERR "));
        Assert.That(line, Does.Match(
            $@" ERR archiveemu-host: {_game.Game}: the game is already served by a running ArchiveEmu \(process {first.Id} \(dotnet exec \S+archiveemu\.dll run --mod .*\), "
            + @"since (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\); leave it serving: it ends with that process \(a run, when its game exits\), then launch again$"));
        var started = DateTime.Parse(System.Text.RegularExpressions.Regex.Match(line, @"since ([0-9: -]+)\)").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        Assert.That(started, Is.InRange(since.AddSeconds(-70), since), "when the first run started");

        first.StandardInput.WriteLine("go on");
        first.StandardInput.Close();
        var (firstCode, _, firstError) = Finish(first);
        Assert.That(firstCode, Is.Zero, firstError);
        _game.AssertServes("data/textures.afs", ChildCopy, _original); // the first mount kept serving the modded game
    }

    [Test]
    public void ASecondRunWithPlay_SaysTheGameSeesTheFirstRunsMods_AndItDoes()
    {
        // Issue 48: it said "starting the game unmodded", while the game folder it starts in is the first run's mount.
        var first = StartRun("--mod", _game.Mods[0], "--mod", _game.Mods[1], "--no-cache", "--", "sh", "-c", "echo ready; read line");
        WaitForLine(first, "ready");

        var second = StartRun("--mod", _game.Mods[0], "--no-cache", "--on-failure", "play", "--", "sh", "-c", $"cp data/textures.afs '{ChildCopy}'; exit 7");
        second.StandardInput.Close();
        var (code, output, error) = Finish(second);
        Assert.That(code, Is.EqualTo(7), $"{output}\n{error}");
        _game.AssertServes("data/textures.afs", ChildCopy, _original); // both mods: the first run's, not the second's one
        var log = Directory.GetFiles(Logs).Single(f => File.ReadLines(f).First().Contains("--on-failure play"));
        var said = $"archiveemu run: starting the game anyway (--on-failure play) in its folder, which another ArchiveEmu serves: "
                   + $"the game sees that run's mods; the log is {log}";
        Assert.That(error.Split('\n'), Does.Contain(said));
        Assert.That(File.ReadLines(log).Select(l => l[24..]), Does.Contain(said));
        Assert.That(error + output, Does.Not.Contain("unmodded"));

        first.StandardInput.WriteLine("go on");
        first.StandardInput.Close();
        Assert.That(Finish(first).Code, Is.Zero);
    }

    /// <summary>The host's lines in <paramref name="output"/> without their time: "INF mounted …".</summary>
    private static string[] HostLines(string output) =>
        output.Split('\n').Where(l => System.Text.RegularExpressions.Regex.IsMatch(l, @"^\d\d:\d\d:\d\d [A-Z]{3} ")).Select(l => l[9..]).ToArray();

    [Test]
    public void ARunsOutput_LeadsWithTheModsTheArchivesChangedAndTheLog_StorageCodecsAndReadStatisticsOnlyInTheLog()
    {
        // Issue 48: the terminal led with the language, conflicts, the cache folder, the FUSE transport, the cache device's and
        // LZ4's speeds, each build's storage and timing, and read statistics; the log's path was not shown at all.
        var run = StartRun("--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache, "--merge", "always", "--", "sh", "-c",
            $"cp data/textures.afs '{ChildCopy}'");
        run.StandardInput.Close();
        var (code, output, error) = Finish(run);
        Assert.That(code, Is.Zero, $"{output}\n{error}");
        _game.AssertServes("data/textures.afs", ChildCopy, _original);
        var log = Directory.GetFiles(Logs).Single();
        var shown = HostLines(output);
        Assert.That(shown[0], Is.EqualTo($"INF mounted {_game.Game} with 2 mod(s) at the game folder itself, read-only: hd-textures, ui-fix; "
            + $"3 archive(s) changed (data/bundle.tar, data/data.cpk, data/textures.afs), 2 file override(s); the log is {log}"), output);
        Assert.That(shown[^1], Is.EqualTo($"INF unmounted {_game.Game}"), output);
        foreach (var detail in new[] { "INF mount detail: ", "INF compression: ", "INF built ", "INF read statistics " })
            Assert.That(shown, Has.None.StartsWith(detail), output);
        var logged = File.ReadLines(log).Select(l => l[24..]).ToList();
        Assert.That(logged, Has.Some.EqualTo($"INF mount detail: cache {_game.Cache}, merge always; FUSE protocol, passthrough on; names found whatever their case"));
        Assert.That(logged, Has.Some.StartsWith("INF compression: cache device reads "));
        Assert.That(logged, Has.Some.StartsWith("INF built data/textures.afs: merged, packed now ("));
        Assert.That(logged, Has.Some.StartsWith("INF read statistics data/textures.afs: "));
        Assert.That(logged, Is.SupersetOf(shown), "every line shown is in the log");
    }
}
