using ArchiveEmu.Core.Machine.Steam;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>Where <c>--reloaded</c> looks, from the environment or given by a test: the home folder, the prefix of a Steam launch, Steam's roots.</summary>
internal sealed record ReloadedSearchRoots(string? Home, string? SteamCompatDataPath, IReadOnlyList<string> SteamRoots)
{
    /// <summary>HOME, STEAM_COMPAT_DATA_PATH (Steam sets it for a game it launches) and Steam's usual roots under HOME (native, Debian's link, Flatpak).</summary>
    public static ReloadedSearchRoots FromEnvironment()
    {
        var home = Environment.GetEnvironmentVariable("HOME") is { Length: > 0 } h ? h : null;
        return new ReloadedSearchRoots(home, Environment.GetEnvironmentVariable("STEAM_COMPAT_DATA_PATH") is { Length: > 0 } c ? c : null, SteamRootsUnder(home));
    }

    public static string[] SteamRootsUnder(string? home) => home is null ? [] :
        [Path.Combine(home, ".steam/steam"), Path.Combine(home, ".local/share/Steam"), Path.Combine(home, ".var/app/com.valvesoftware.Steam/.local/share/Steam")];
}

/// <summary>
/// <c>--reloaded</c>: finds the Reloaded-II setup of a game folder, in this order: the Proton prefix of a Steam launch
/// (STEAM_COMPAT_DATA_PATH); the prefix Steam keeps for the game (<c>compatdata/&lt;appid&gt;</c>, the app id from the
/// <c>appmanifest_&lt;appid&gt;.acf</c> whose <c>installdir</c> is the game folder, in the game's Steam library or any library
/// <c>libraryfolders.vdf</c> lists); <c>~/.wine</c>; the folder Reloaded-II's Linux installer uses (<c>~/Desktop/Reloaded-II - &lt;game folder name&gt;/</c>).
/// </summary>
internal static class ReloadedSearch
{
    private const string InPrefix = "drive_c/users/steamuser/AppData/Roaming/Reloaded-Mod-Loader-II";

    /// <summary>The first setup found; an <see cref="IOException"/> listing every place looked at when there is none.</summary>
    public static ReloadedLocation Find(string gameFolder, ReloadedSearchRoots roots)
    {
        var looked = new List<string>();
        var problems = new List<string>();
        string? steamPrefix = null;
        if (roots.SteamCompatDataPath is { } compat)
        {
            if (InPrefixOf(Path.Combine(compat, "pfx"), "steamuser", looked) is { } found)
                return new ReloadedLocation(found, Path.Combine(compat, "pfx"), "the Proton prefix of this Steam launch, STEAM_COMPAT_DATA_PATH");
        }
        foreach (var (appId, manifest, compatData) in SteamLibraries.CompatDataOf(gameFolder, roots.SteamRoots, problems))
        {
            var prefix = Path.Combine(compatData, "pfx");
            steamPrefix ??= Directory.Exists(prefix) ? prefix : null;
            if (InPrefixOf(prefix, "steamuser", looked) is { } found)
                return new ReloadedLocation(found, prefix, $"the Proton prefix Steam keeps for app {appId}, installed by {manifest}");
        }
        if (roots.Home is { } home)
        {
            var wine = Path.Combine(home, ".wine");
            var users = Path.Combine(wine, "drive_c/users");
            var names = Directory.Exists(users) ? Directory.EnumerateDirectories(users).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList() : [];
            if (names.Count == 0)
                looked.Add(Path.Combine(users, "<user>/AppData/Roaming/Reloaded-Mod-Loader-II"));
            foreach (var user in names)
                if (InPrefixOf(wine, user!, looked) is { } found)
                    return new ReloadedLocation(found, wine, "the Wine prefix ~/.wine");
            var installer = Path.Combine(home, "Desktop", $"Reloaded-II - {Path.GetFileName(Path.TrimEndingDirectorySeparator(Path.GetFullPath(gameFolder)))}");
            looked.Add(installer);
            if (Directory.Exists(Path.Combine(installer, "Apps")) && Directory.Exists(Path.Combine(installer, "Mods")))
                return new ReloadedLocation(installer, steamPrefix, "the folder Reloaded-II's Linux installer uses");
        }
        var steam = roots.SteamRoots.Count == 0 ? "" : $"; Steam roots: {string.Join(", ", roots.SteamRoots)}";
        throw new IOException($"{Path.GetFullPath(gameFolder)}: no Reloaded-II setup found for this game; looked in {string.Join(", ", looked)}{steam}"
            + (problems.Count > 0 ? $" ({string.Join("; ", problems)})" : "") + "; give its folder with --reloaded-dir PATH");
    }

    private static string? InPrefixOf(string prefix, string user, List<string> looked)
    {
        var folder = Path.Combine(prefix, InPrefix.Replace("steamuser", user));
        looked.Add(folder);
        return File.Exists(Path.Combine(folder, ReloadedFolders.LoaderConfigName)) ? folder : null;
    }
}
