using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Cli.Tests.Run;

/// <summary>
/// Issue 48, "A Steam launch always leaves a trace": a command line <c>run</c> cannot parse (exit 2) failed before the run
/// log existed, so under Steam it left nothing, and <c>--on-failure play</c> did not start the game. Now the error goes to a
/// new run log and the desktop, and <c>play</c> with the command after <c>--</c> starts it unmodded. And every line <c>run</c>
/// writes to stderr is in the log too: the Reloaded-II lines and warnings used to reach stderr only.
/// </summary>
[NonParallelizable]
public sealed class RunUsageErrorTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private FakeDesktop _user = null!;

    [SetUp]
    public void Isolate()
    {
        LinuxOnly.Require("the fake notify-send is a shell script");
        _user = new FakeDesktop();
    }

    [TearDown]
    public void Restore() => _user?.Dispose();

    private string TheLog() => _user.TheLog();

    private static string[] Lines(string log) => FakeDesktop.Lines(log);

    [Test]
    public void AMisspeltOption_Stop_StartsNothing_Exit2_TheErrorInTheLogAndOnTheDesktop()
    {
        var marker = _user["started"];
        var result = CliRun.Run("run", "--relaoded", "--", "touch", marker);

        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(File.Exists(marker), Is.False, "nothing started");
        var log = TheLog();
        var lines = Lines(log);
        Assert.That(lines[0], Is.EqualTo($"archiveemu {Program.Version} run: run --relaoded -- touch {marker}"));
        Assert.That(lines[2], Is.EqualTo("archiveemu run: unknown option --relaoded; did you mean --reloaded?"));
        Assert.That(lines[3], Does.StartWith("usage: archiveemu run ([--game DIR] (--mod DIR"), "run takes the working folder: --game is not required");
        Assert.That(lines[4], Is.EqualTo($"archiveemu run: the game was not started (--on-failure stop); the log is {log}"));
        Assert.That(result.Error.Split('\n')[..3], Is.EqualTo(lines[2..5]), "stderr and the log hold the same lines");
        Assert.That(File.ReadAllLines(_user["notified"])[2..], Is.EqualTo(new[]
        {
            "ArchiveEmu: the game was not started", "archiveemu run: unknown option --relaoded; did you mean --reloaded?", $"The log is {log}",
        }));
    }

    [Test]
    public void AMisspeltOption_Play_StartsTheGameUnmodded_AndExitsWithItsCode()
    {
        var result = CliRun.Run("run", "--relaoded", "--on-failure", "play", "--", "sh", "-c", "exit 7");

        Assert.That(result.ExitCode, Is.EqualTo(7), result.ToString());
        var lines = Lines(TheLog());
        Assert.That(lines, Does.Contain($"archiveemu run: starting the game unmodded (--on-failure play); the log is {TheLog()}"));
        Assert.That(lines[^1], Is.EqualTo("sh exited with code 7"));
        Assert.That(File.ReadAllLines(_user["notified"])[2], Is.EqualTo("ArchiveEmu: the game starts without mods"));
    }

    [TestCase("--on-failure=play")]
    [TestCase("--on-failure:play")]
    public void NoModsOption_PlayWrittenInOneWord_StartsTheGameUnmodded(string play)
    {
        var result = CliRun.Run("run", "--game", Game, play, "--", "sh", "-c", "exit 3");
        Assert.That(result.ExitCode, Is.EqualTo(3), result.ToString());
        Assert.That(Lines(TheLog())[2], Is.EqualTo("archiveemu run: missing --mod DIR (or --reloaded, or --reloaded-dir PATH)"));
    }

    [Test]
    public void NoCommandAtAll_TheUsageErrorThenTheUsageThenWhereTheLogIs_OnStderr()
    {
        var result = CliRun.Run("run", "--game", Game, "--mod", CliRun.Fixture("mods/hd-textures"));
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Out, Is.Empty);
        var lines = result.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(3), result.ToString());
        Assert.That(lines[0], Does.StartWith("archiveemu run: ").And.Contain("Required argument 'COMMAND' missing"));
        Assert.That(lines[1], Does.StartWith("usage: archiveemu run ").And.Contain("--help'"));
        Assert.That(lines[2], Is.EqualTo($"archiveemu run: nothing was started (no command after --); the log is {TheLog()}"));
    }

    [Test]
    public void NoCommandAfterTheDashes_IsLoggedAndNotified_Exit2()
    {
        var result = CliRun.Run("run", "--game", Game, "--on-failure", "play");
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(Lines(TheLog())[^2], Is.EqualTo($"archiveemu run: nothing was started (no command after --); the log is {TheLog()}"));
        Assert.That(File.Exists(_user["notified"]), Is.True);
    }

    [Test]
    public void TheReloadedLinesAndWarnings_ReachTheLogAsTheyReachStderr()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        using var dir = new TempDirectory("cli-run-reloaded");
        var p = new FakeProtonPrefix(dir.Path);
        Directory.CreateDirectory(p.Game);
        File.WriteAllText(Path.Combine(p.Game, "P5R.exe"), "");
        p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(p.Game, "P5R.exe")), "ui", "not.installed");
        var ui = p.Mod("ui-fix", "ui", "UI Fix", "1.0.3");
        Directory.CreateDirectory(Path.Combine(ui, "Redirector"));

        // Mounted and run where FUSE works, else failed at the mount: the lines come before either, and the log must hold them.
        var result = CliRun.Run("run", "--game", p.Game, "--reloaded-dir", p.ConfigFolder, "--no-cache", "--", "true");

        var logged = Lines(TheLog());
        var said = result.Error.Split('\n').Where(l => l.StartsWith("archiveemu: ", StringComparison.Ordinal)).ToList();
        Assert.That(said, Has.Some.StartWith("archiveemu: reloaded").And.Some.Contains("UI Fix 1.0.3").And.Some.Contains("not.installed"), result.ToString());
        Assert.That(logged, Is.SupersetOf(said), "every line run wrote to stderr is in the log");
    }
}
