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
    /// The manifest of the game in <paramref name="gameFolder"/> in the Steam library it sits in (<see cref="Libraries"/>), or null;
    /// manifests that cannot be read go to <paramref name="unreadable"/>.
    /// </summary>
    public static SteamAppManifest? OfGame(string gameFolder, List<string> unreadable) =>
        Installing(gameFolder, Libraries(gameFolder).Select(l => l.Steamapps).Distinct(), unreadable).FirstOrDefault();

    /// <summary>
    /// The one lookup of "the manifest whose install folder is this one", for the game's language, its Proton prefix and doctor:
    /// each manifest in the <c>steamapps</c> folders <paramref name="steamappsFolders"/>, in order, whose
    /// <c>steamapps/common/&lt;installdir&gt;</c> is <paramref name="gameFolder"/> (as given, or by real path); where none in a
    /// folder is, the first whose installdir is the game folder's name ignoring letter case (Windows' folders, a library copied
    /// between systems). A manifest that cannot be read or parsed goes to <paramref name="unreadable"/> as one line naming it
    /// and what is wrong.
    /// </summary>
    public static IEnumerable<SteamAppManifest> Installing(string gameFolder, IEnumerable<string> steamappsFolders, List<string> unreadable)
    {
        var given = System.IO.Path.TrimEndingDirectorySeparator(System.IO.Path.GetFullPath(gameFolder));
        var real = GamePaths.RealPath(given);
        var name = System.IO.Path.GetFileName(given);
        foreach (var steamapps in steamappsFolders)
        {
            SteamAppManifest? caseOnly = null;
            bool found = false;
            foreach (var file in ManifestFiles(steamapps))
            {
                var manifest = Read(file, unreadable);
                if (manifest?.AppState.ValueAt("installdir") is not { Length: > 0 } dir)
                    continue;
                var installed = System.IO.Path.Combine(steamapps, "common", dir);
                if (installed == given || installed == real || (Directory.Exists(installed) && GamePaths.RealPath(installed) == real))
                {
                    found = true;
                    yield return manifest;
                }
                else if (caseOnly is null && dir.Equals(name, StringComparison.OrdinalIgnoreCase))
                    caseOnly = manifest;
            }
            if (!found && caseOnly is not null)
                yield return caseOnly;
        }
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
                unreadable.Add($"{file}: Steam's manifest has no AppState with an installdir; the game it installs is not known");
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
