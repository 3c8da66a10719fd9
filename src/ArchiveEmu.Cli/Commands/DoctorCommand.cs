using System.CommandLine;
using ArchiveEmu.Cli.Doctor;
using ArchiveEmu.Cli.Options;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu doctor</c>: checks, before launching, what a mount needs on this machine and, with <c>--game</c>, of this game and
/// its mods; one line per check with what to do when it fails (docs/DOCTOR.md). Exit 0 when a mount would work, 1 when a blocking check fails.
/// </summary>
internal sealed class DoctorCommand(DoctorMachine? machine = null) : ICommand
{
    private readonly GameArguments _game = new(modsRequired: false, gameRequired: false, serving: ServingArguments.ForGame(verifyContent: false));
    private readonly Option<bool> _json = new("--json") { Description = "Write the checks as JSON on stdout: {ok, checks: [{name, ok, blocking, detail, fix}]}" };

    public string Name => "doctor";
    public string Usage => "archiveemu doctor [--game DIR] [--mod DIR…] [--reloaded | --reloaded-dir PATH] [--profile NAME] [--cache DIR | --no-cache] [--language LANG] [--json]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "Check whether a mount would work here: FUSE, the game folder, the cache, the mods, Steam's container"));
        command.Options.Add(_json);
        command.Validate(result => result.Given(_game.Mods) && !result.Given(_game.Game) ? "--mod needs --game DIR (mods are read against their game)" : null);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var checks = Checks(parse, console);
        var report = new DoctorReport(checks);
        if (parse.GetValue(_json))
            report.WriteJson(console.Out);
        else
            report.WriteText(console.Out, console.IsInteractive);
        if (report.Ok)
            return 0;
        // Exit 1 says one line on stderr, as for every command: what stops the mount, the report itself staying on stdout.
        console.Error.WriteLine($"archiveemu doctor: a mount would fail here: {string.Join("; ", checks.Where(c => c.Stops).Select(c => c.Detail))}");
        return 1;
    }

    /// <summary>
    /// Which archiveemu answers, the machine's checks, then with --game the game folder's, the cache's, the mods', Reloaded-II's,
    /// the Steam container's and what Steam's launch options start.
    /// </summary>
    private List<DoctorCheck> Checks(ParseResult parse, CliConsole console)
    {
        var game = _game.GameFolder(parse); // --game, else the --profile's
        var serving = _game.ServingOf(parse); // --cache, else the --profile's
        if (!OperatingSystem.IsLinux()) // every other check reads Linux's /proc, /dev and libc
            return [(machine?.Running ?? RunningArchiveEmu.Current()).Check(),
                DoctorCheck.Failed("Linux", "mounting needs Linux's FUSE; elsewhere, archiveemu build writes the modded archives", "run the game on Linux, or use build"),
                .. game is not null && GameFolderChecks.Missing(game) is { } missing ? [missing] : Array.Empty<DoctorCheck>()];
        var here = machine ?? DoctorMachine.Current();
        List<DoctorCheck> checks = [here.Running.Check(), .. FuseChecks.Run(here)];
        if (game is null)
        {
            checks.Add(CacheCheck.Run(serving.Cache, serving.NoCache));
            return checks;
        }
        var folder = GameFolderChecks.Run(game).ToArray();
        checks.AddRange(folder);
        checks.Add(CacheCheck.Run(serving.Cache, serving.NoCache));
        bool codeMods = false;
        // Only a game folder with nothing on it is read: through a mount the mods would meet served files, or a dead mount's errors.
        if (folder.All(c => c.Outcome == Outcome.Pass))
            checks.AddRange(Mods(parse, console, out codeMods));
        else
            checks.Add(DoctorCheck.Fact("mods", "not read, since the game folder is not usable as it is (see above)"));
        checks.Add(ReloadedCheck.Run(game, here, codeMods));
        checks.Add(SteamContainerCheck.Run(game, here));
        checks.AddRange(SteamLaunchCheck.Run(game, here));
        return checks;
    }

    /// <summary>The mods as the mount would read them (<see cref="GameArguments.Open"/>); a set that cannot be read at all is one failed check.</summary>
    private IEnumerable<DoctorCheck> Mods(ParseResult parse, CliConsole console, out bool codeMods)
    {
        var warnings = new List<string>();
        try
        {
            var plan = _game.Open(parse, console, warnings).Plan;
            var checks = ModChecks.Run(plan, warnings).ToArray();
            codeMods = checks.Any(c => c.Name == "code mods" && !c.Ok);
            return checks;
        }
        catch (Exception e) when (Program.IsBadInput(e))
        {
            codeMods = false;
            return [DoctorCheck.Failed("mods", UsageErrors.OneLine(e.Message), "fix what the line names (a mod folder missing, a game folder that is not one)")];
        }
    }
}
