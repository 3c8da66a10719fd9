namespace ArchiveEmu.Core.Merges;

/// <summary>
/// Tells a game by its executable in the game folder, as the game loaders' mods are bound to it (Reloaded-II runs a mod for the
/// application its <c>SupportedAppId</c> names: the executable's name in lower case).
/// </summary>
internal static class GameExecutables
{
    /// <summary>The first of <paramref name="names"/> (in their order) that is a file in <paramref name="gameFolder"/>, letter case aside; or null.</summary>
    public static string? FindAmong(string gameFolder, IReadOnlyList<string> names)
    {
        if (!Directory.Exists(gameFolder))
            return null;
        var present = Directory.EnumerateFiles(gameFolder, "*.exe", new EnumerationOptions { MatchCasing = MatchCasing.CaseInsensitive })
            .Select(Path.GetFileName).ToHashSet(StringComparer.OrdinalIgnoreCase);
        return names.FirstOrDefault(present.Contains);
    }
}
