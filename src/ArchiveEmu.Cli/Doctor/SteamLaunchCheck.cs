using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.Host;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// What Steam starts for the game: each Steam user's launch options for its appid (<see cref="SteamLaunchOptions"/>, in the
/// game's own Steam root and the usual ones under the home folder), read as Steam's shell reads them, and the archiveemu they
/// name found as Steam would find it, so a player with two copies knows which one runs. Never blocking: a mount by hand does
/// not go through Steam.
/// </summary>
internal static class SteamLaunchCheck
{
    public const string Name = "Steam launch";

    public static IEnumerable<DoctorCheck> Run(string game, DoctorMachine machine)
    {
        var full = Path.TrimEndingDirectorySeparator(Path.GetFullPath(game));
        var problems = new List<string>();
        var manifest = SteamAppManifest.OfGame(full, problems);
        if (manifest?.AppState.ValueAt("appid") is not { Length: > 0 } appId)
        {
            foreach (var problem in problems)
                yield return Unreadable(problem);
            yield return DoctorCheck.Fact(Name, $"{full}: no Steam manifest (steamapps/appmanifest_*.acf) names it with an appid, so no launch options are read");
            yield break;
        }
        problems.Clear(); // the manifests of other games are not this check's business
        // The root whose library holds the game first (the usual case), then the usual roots, for a game in another library (an SD card).
        string[] roots = [Path.GetDirectoryName(Path.GetDirectoryName(manifest.Path)!)!, .. ReloadedSearchRoots.SteamRootsUnder(machine.Home)];
        var users = SteamLaunchOptions.Read(roots, appId, problems);
        foreach (var problem in problems)
            yield return Unreadable(problem);
        var set = users.Where(u => u.Options.Trim().Length > 0).ToList();
        if (set.Count > 0)
        {
            foreach (var user in set)
                yield return Of(user, appId, full, machine);
        }
        else if (users.Count > 0)
            yield return DoctorCheck.Fact(Name, $"Steam starts the game without archiveemu (no launch options for appid {appId})",
                Paste($"{This(machine)} run --reloaded -- %command%"));
        else if (problems.Count == 0)
            yield return DoctorCheck.Fact(Name, $"no Steam user's userdata/*/config/localconfig.vdf in {string.Join(", ", roots.Distinct())}: "
                + $"what Steam starts for appid {appId} is not known");
    }

    /// <summary>What one user's launch options start.</summary>
    private static DoctorCheck Of(SteamUserLaunchOptions user, string appId, string game, DoctorMachine machine)
    {
        var who = $"userdata/{user.UserId}";
        var options = user.Options;
        var standard = Paste($"{This(machine)} run --reloaded -- %command%");
        if (ShellWords.Split(options, machine.Home, out var problem) is not { } words)
            return DoctorCheck.Failed(Name, $"{who}: Steam's shell cannot run the launch options for appid {appId} ({options}): {problem}", standard, blocking: false);
        int command = words.FindIndex(w => w.Text.Contains("%command%", StringComparison.Ordinal));
        // archiveemu may come after a wrapper (gamemoderun, env); a NAME=value assignment (PROTON_LOG_DIR=~/archiveemu-logs) is never the program.
        var named = words.Take(command < 0 ? words.Count : command).Where(w => !ShellWords.IsAssignment(w.Text) && IsArchiveEmu(w.Text))
            .Select(w => (ShellWord?)w).FirstOrDefault();
        if (command < 0)
            return DoctorCheck.Fact(Name, $"{who}: Steam starts the game without archiveemu: the launch options ({options}) have no %command%, "
                + "so Steam adds them to the game's own arguments", named is null ? Paste($"{This(machine)} run --reloaded -- %command% {options}") : standard);
        if (named is not { } word)
            return DoctorCheck.Fact(Name, $"{who}: Steam starts the game without archiveemu (launch options: {options})",
                Paste($"{options[..words[command].Start]}{This(machine)} run --reloaded -- {options[words[command].Start..]}"));
        var fix = Paste($"{options[..word.Start]}{This(machine)}{options[word.End..]}");
        return Started(who, word.Text, game, machine, fix);
    }

    /// <summary>The archiveemu a launch option names, found as Steam finds it: a bare name on Steam's PATH, a path as it is (relative: from the game folder, where Steam starts).</summary>
    private static DoctorCheck Started(string who, string named, string game, DoctorMachine machine, string fix)
    {
        string path, how = "";
        if (!named.Contains('/'))
        {
            if (ProgramSearch.OnPath(named, machine.SteamSearchPath) is not { } found)
                return DoctorCheck.Failed(Name, $"{who}: Steam's launch option starts '{named}', which Steam does not find "
                    + "(Steam reads no ~/.bashrc, its PATH has no ~/.local/bin)", fix, blocking: false);
            (path, how) = (found, " (found on Steam's PATH)");
        }
        else
            path = Path.GetFullPath(named, game);
        if (!File.Exists(path))
            return DoctorCheck.Failed(Name, $"{who}: Steam's launch option starts {path}, which does not exist", fix, blocking: false);
        if (LibC.Access(path, LibC.X_OK) != 0)
            return DoctorCheck.Failed(Name, $"{who}: Steam's launch option starts {path}, which this user cannot run (not executable)",
                $"chmod +x {path}, or start this copy: {fix}", blocking: false);
        var running = machine.Running;
        if (RealPaths.Of(path) == RealPaths.Of(running.LaunchPath))
            return DoctorCheck.Passed(Name, $"{who}: Steam starts {path}{how} ({running.Version}), this program", blocking: false);
        return DoctorCheck.Warning(Name, $"{who}: Steam starts {path}{how} ({ArchiveEmuCopy.VersionOf(path)}), not this program "
            + $"({running.LaunchPath}, {running.Version}): the game is modded by that copy", $"to start this copy instead: {fix}; or remove the copy you do not use");
    }

    private static DoctorCheck Unreadable(string problem) =>
        DoctorCheck.Warning(Name, problem, "what Steam starts for this user is not known; Steam writes the file again when it exits (restart Steam)");

    /// <summary>Whether a launch option's word names archiveemu (a path to it, or a renamed copy such as archiveemu-0.2).</summary>
    private static bool IsArchiveEmu(string word) => Path.GetFileName(word).StartsWith("archiveemu", StringComparison.OrdinalIgnoreCase);

    /// <summary>This copy, quoted as a launch option names it.</summary>
    private static string This(DoctorMachine machine) => ShellWords.Quoted(machine.Running.LaunchPath);

    /// <summary>A launch option to paste, worded as install.sh's last line.</summary>
    private static string Paste(string line) => $"Steam launch option: {line}";
}
