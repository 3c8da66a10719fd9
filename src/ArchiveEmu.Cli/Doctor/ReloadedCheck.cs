using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// Whether a Reloaded-II setup is on this machine for the game, looked for where Reloaded-II keeps it on Linux (ReloadedII.json in
/// the Proton prefix Steam gives the game or in ~/.wine, the launcher folder Reloaded-II's Linux installer makes). One small
/// class: the <c>--reloaded</c> finder replaces its search when it lands.
/// </summary>
internal static class ReloadedCheck
{
    private const string Name = "Reloaded-II";
    private const string RoamingInPrefix = "drive_c/users/steamuser/AppData/Roaming/Reloaded-Mod-Loader-II";

    public static DoctorCheck Run(string game, DoctorMachine machine, bool codeMods)
    {
        var places = Places(game, machine).ToArray();
        if (places.Where(p => p.Found).Select(p => p.Path).FirstOrDefault() is { } found)
            return DoctorCheck.Fact(Name, $"found: {found}");
        var looked = string.Join(", ", places.Select(p => p.Path));
        return codeMods
            ? DoctorCheck.Warning(Name, $"not found (looked at {looked}), and code mods need it", "install Reloaded-II into the game's Proton prefix, or drop the code mods")
            : DoctorCheck.Fact(Name, $"not found (looked at {looked}); only code mods need it");
    }

    /// <summary>The configuration files and folders to look at, with whether each exists.</summary>
    internal static IEnumerable<(string Path, bool Found)> Places(string game, DoctorMachine machine)
    {
        var prefixes = new List<string>();
        if (machine.Environment("STEAM_COMPAT_DATA_PATH") is { Length: > 0 } launched)
            prefixes.Add(Path.Combine(launched, "pfx"));
        foreach (var (steamapps, installDir) in SteamAppManifest.Libraries(game))
            if (SteamAppManifest.Find(steamapps, installDir, []) is { } manifest && manifest.AppState.ValueAt("appid") is { } appId)
                prefixes.Add(Path.Combine(steamapps, "compatdata", appId, "pfx"));
        foreach (var prefix in prefixes.Distinct())
            yield return Exists(Path.Combine(prefix, RoamingInPrefix, "ReloadedII.json"));
        var wineUsers = Path.Combine(machine.Home, ".wine", "drive_c", "users");
        var wine = Directory.Exists(wineUsers) ? Directory.GetDirectories(wineUsers).Order(StringComparer.Ordinal).ToArray() : [];
        foreach (var user in wine)
            yield return Exists(Path.Combine(user, "AppData/Roaming/Reloaded-Mod-Loader-II/ReloadedII.json"));
        if (wine.Length == 0)
            yield return Exists(Path.Combine(wineUsers, Environment.UserName, "AppData/Roaming/Reloaded-Mod-Loader-II/ReloadedII.json"));
        // The Linux installer's portable launcher folder: Mods/ beside the launcher.
        yield return Exists(Path.Combine(machine.Home, "Desktop", $"Reloaded-II - {Path.GetFileName(Path.GetFullPath(game).TrimEnd('/'))}", "Mods"));
    }

    private static (string, bool) Exists(string path) => (path, File.Exists(path) || Directory.Exists(path));
}
