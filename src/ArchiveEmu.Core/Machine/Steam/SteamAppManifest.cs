using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Machine.Steam;

/// <summary>
/// Steam's record of an installed game: <c>&lt;library&gt;/steamapps/appmanifest_&lt;appid&gt;.acf</c>, whose <c>AppState</c> names the
/// game's folder under <c>steamapps/common/</c> (<c>installdir</c>) and the language the player chose for it.
/// </summary>
/// <param name="Path">The manifest file.</param>
/// <param name="AppState">Its <c>AppState</c> block.</param>
internal sealed record SteamAppManifest(string Path, ValveKeyValues AppState)
{
    /// <summary>
    /// The Steam libraries a game folder may sit in, as (<c>steamapps</c> folder, the game folder's name): the folder as given
    /// and with its symlinks resolved, each when it is <c>&lt;library&gt;/steamapps/common/&lt;name&gt;</c>; empty when neither is.
    /// </summary>
    public static IReadOnlyList<(string Steamapps, string InstallDir)> Libraries(string gameFolder)
    {
        var found = new List<(string, string)>();
        foreach (var path in new[] { System.IO.Path.GetFullPath(gameFolder), GamePaths.RealPath(gameFolder) })
        {
            var game = new DirectoryInfo(System.IO.Path.TrimEndingDirectorySeparator(path));
            if (game.Parent is { Name: var common, Parent: { Name: var steamapps } library }
                && common.Equals("common", StringComparison.OrdinalIgnoreCase) && steamapps.Equals("steamapps", StringComparison.OrdinalIgnoreCase)
                && !found.Contains((library.FullName, game.Name)))
                found.Add((library.FullName, game.Name));
        }
        return found;
    }

    /// <summary>
    /// The manifest in <paramref name="steamapps"/> whose <c>installdir</c> is <paramref name="installDir"/>: spelled exactly
    /// if one is, else ignoring letter case (Windows' folders, a library copied between systems). A manifest that cannot be
    /// read or parsed goes to <paramref name="unreadable"/> as one line naming it and what is wrong.
    /// </summary>
    public static SteamAppManifest? Find(string steamapps, string installDir, List<string> unreadable)
    {
        SteamAppManifest? caseOnly = null;
        foreach (var file in ManifestFiles(steamapps))
        {
            var manifest = Read(file, unreadable);
            if (manifest?.AppState.ValueAt("installdir") is not { } dir)
                continue;
            if (dir == installDir)
                return manifest;
            if (caseOnly is null && dir.Equals(installDir, StringComparison.OrdinalIgnoreCase))
                caseOnly = manifest;
        }
        return caseOnly;
    }

    private static IEnumerable<string> ManifestFiles(string steamapps)
    {
        try
        {
            return Directory.GetFiles(steamapps, "appmanifest_*.acf").Order(StringComparer.Ordinal).ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static SteamAppManifest? Read(string file, List<string> unreadable)
    {
        try
        {
            var appState = ValveKeyValues.Parse(File.ReadAllText(file))["AppState"];
            if (appState?.ValueAt("installdir") is null)
            {
                unreadable.Add($"{file}: Steam's manifest has no AppState with an installdir; its game's language is not known");
                return null;
            }
            return new SteamAppManifest(file, appState);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            unreadable.Add($"{file}: Steam's manifest cannot be read ({e.Message})");
            return null;
        }
    }
}
