using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Run;

/// <summary>
/// Issue 32, <c>run</c> under Steam, for a mount that cannot be made (a mod folder missing, found before anything is
/// mounted): the reason and where the log is go to stderr and into the run's log under XDG_STATE_HOME; a desktop session's
/// notify-send shows it (a fake one on PATH records its arguments); <c>--on-failure stop</c> starts nothing and exits 1,
/// <c>play</c> starts the program unmodded and exits with its code. The last 10 logs are kept.
/// </summary>
[NonParallelizable]
public sealed class RunFailureTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private FakeDesktop _user = null!;

    [SetUp]
    public void Isolate()
    {
        LinuxOnly.Require("run mounts through FUSE, and the fake notify-send is a shell script");
        _user = new FakeDesktop();
    }

    [TearDown]
    public void Restore() => _user?.Dispose();

    private string TheLog() => _user.TheLog();

    private static string[] Lines(string log) => FakeDesktop.Lines(log);

    [Test]
    public void AMissingModFolder_Stop_StartsNothing_Exit1_TheReasonInTheLogAndOnTheDesktop()
    {
        var missing = _user["no-such-mod"];
        var marker = _user["started"];
        var result = CliRun.Run("run", "--game", Game, "--mod", missing, "--", "touch", marker);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        var log = TheLog();
        Assert.That(Path.GetFileName(log), Does.Match(@"^run-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.\d{3}_\d+\.log$"));
        Assert.That(result.Error, Is.EqualTo($"archiveemu run: {missing}: mod folder not found; the game was not started (--on-failure stop); the log is {log}\n"));
        Assert.That(File.Exists(marker), Is.False, "nothing started");
        Assert.That(Lines(log), Is.EqualTo(new[]
        {
            $"archiveemu {Program.Version} run: run --game {Game} --mod {missing} -- touch {marker}",
            $"working folder: {Environment.CurrentDirectory}",
            $"archiveemu run: {missing}: mod folder not found; the game was not started (--on-failure stop); the log is {log}",
            $"shown on the desktop through {_user["bin/notify-send"]}",
        }));
        Assert.That(File.ReadAllLines(_user["notified"]), Is.EqualTo(new[]
        {
            "--app-name=ArchiveEmu", "--urgency=critical", "ArchiveEmu: the game was not started", $"{missing}: mod folder not found", $"The log is {log}",
        }));
    }

    [Test]
    public void FromTheHomeFolderWithoutGame_SaysRunTookTheWorkingFolder_AndHowToGiveTheGame()
    {
        // Issue 48: run took the home folder as the game and failed far from the cause ("the mod folder is inside the game
        // folder /home/…"), or walked a Proton prefix's z: link first. HOME is pointed at the working folder (as from a terminal).
        _user.Set("HOME", Environment.CurrentDirectory);
        var home = Path.TrimEndingDirectorySeparator(Environment.CurrentDirectory);
        var result = CliRun.Run("run", "--mod", CliRun.Fixture("mods/hd-textures"), "--", "true");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo($"archiveemu run: {home}: run takes the working folder as the game folder (Steam starts a game in its folder), "
            + $"and this is your home folder; from a terminal, give the game's folder with --game DIR; the game was not started (--on-failure stop); the log is {TheLog()}\n"));
    }

    [Test]
    public void AMissingModFolder_Play_StartsTheProgramUnmodded_AndExitsWithItsCode()
    {
        var missing = _user["no-such-mod"];
        var result = CliRun.Run("run", "--game", Game, "--mod", missing, "--on-failure", "play", "--", "sh", "-c", "exit 5");
        Assert.That(result.ExitCode, Is.EqualTo(5), result.ToString());
        var log = TheLog();
        Assert.That(result.Error, Is.EqualTo($"archiveemu run: {missing}: mod folder not found; starting the game unmodded (--on-failure play); the log is {log}\n"));
        Assert.That(Lines(log)[^2..], Is.EqualTo(new[] { $"shown on the desktop through {_user["bin/notify-send"]}", "sh exited with code 5" }));
        Assert.That(File.ReadAllLines(_user["notified"])[2], Is.EqualTo("ArchiveEmu: the game starts without mods"));
    }

    [Test]
    public void WithoutADesktopSession_NothingIsNotified_TheLogSaysSo()
    {
        _user.Set("DISPLAY", null);
        var result = CliRun.Run("run", "--game", Game, "--mod", _user["no-such-mod"], "--", "true");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(File.Exists(_user["notified"]), Is.False);
        Assert.That(Lines(TheLog())[^1], Is.EqualTo("no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS unset): not shown on the desktop"));
    }

    [Test]
    public void TheLastTenLogsAreKept()
    {
        Directory.CreateDirectory(_user.Logs);
        var old = Enumerable.Range(1, 12).Select(i => Path.Combine(_user.Logs, $"run-2020-01-{i:00}_00-00-00.000_1.log")).ToList();
        old.ForEach(f => File.WriteAllText(f, "old\n"));
        File.WriteAllText(Path.Combine(_user.Logs, "notes.txt"), "not a log");
        CliRun.Run("run", "--game", Game, "--mod", _user["no-such-mod"], "--", "true");
        var left = Directory.GetFiles(_user.Logs).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
        Assert.That(left, Has.Count.EqualTo(11));
        Assert.That(left[0], Is.EqualTo("notes.txt"), "only run logs are removed");
        Assert.That(left[1..10], Is.EqualTo(old[3..].Select(Path.GetFileName)), "the 9 newest old ones, and this run's");
        Assert.That(left[10], Does.StartWith($"run-{DateTime.Now:yyyy}"));
    }

    [Test]
    public void AMissingProfile_IsAFailureOfTheRun_Logged()
    {
        var result = CliRun.Run("run", "--profile", "p5r", "--", "true");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(Lines(TheLog())[2], Does.StartWith($"archiveemu run: {Path.Combine(_user.Profiles, "p5r.json")}: no profile named p5r"));
    }
}
