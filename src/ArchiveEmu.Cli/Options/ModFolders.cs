using ArchiveEmu.Core.Interop;
namespace ArchiveEmu.Cli.Options;

/// <summary>
/// The <c>--mod</c> folders as the router takes them: a mod that is the game folder or inside it is refused (it made
/// every game file a "whole-file override"); the same mod twice is used once, at its last position; a mod inside
/// another is kept, both warned about.
/// </summary>
internal static class ModFolders
{
    /// <summary>The usage error for a mod that is the game folder or inside it, or null.</summary>
    public static string? InsideTheGame(string game, IReadOnlyList<string> mods)
    {
        if (game.Length == 0)
            return null; // an empty --game is its own usage error (CliOptions.RefuseEmptyValues)
        foreach (var mod in mods.Where(m => m.Length > 0))
        {
            // As written (game/../game/data) and with symlinks resolved (a link to the game folder).
            if (RealPaths.IsInside(game, Full(mod)) || RealPaths.IsInside(game, RealPaths.Of(mod)))
                return $"--mod {mod} is {(RealPaths.Same(RealPaths.Of(game), RealPaths.Of(mod)) ? "the game folder" : "inside the game folder")} "
                    + $"{game}; a mod is a folder of its own that mirrors the game's";
        }
        return null;
    }

    /// <summary>
    /// The usage error for a mod folder that holds several Reloaded-II mods (a folder without a ModConfig.json of its own, with
    /// ModConfig.json files one or two folders down, as in Reloaded-II's Mods/ with its grouping folders), or null: served as one
    /// mod, their ModConfig.json files became new game files, in no load order.
    /// </summary>
    public static string? SeveralMods(IReadOnlyList<string> mods)
    {
        foreach (var mod in mods.Where(Directory.Exists))
        {
            if (HasConfig(mod))
                continue;
            var inside = Directory.EnumerateDirectories(mod).SelectMany(d => Directory.EnumerateDirectories(d).Prepend(d))
                .Where(HasConfig).Order(StringComparer.Ordinal).ToList();
            if (inside.Count == 1) // a downloaded mod extracted into a folder of its own: the way out is that one folder
                return $"--mod {mod} holds one Reloaded-II mod, in {Path.GetRelativePath(mod, inside[0])}, not at its top; "
                    + $"give that folder: --mod {inside[0]}";
            if (inside.Count > 0)
                return $"--mod {mod} holds {inside.Count} Reloaded-II mods in subfolders "
                    + $"({string.Join(", ", inside.Take(3).Select(d => Path.GetRelativePath(mod, d)))}{(inside.Count > 3 ? ", …" : "")}), not one mod; "
                    + "use --reloaded or --reloaded-dir PATH for a Reloaded-II setup, or one --mod per mod folder";
        }
        return null;
    }

    private static bool HasConfig(string folder) =>
        Directory.EnumerateFiles(folder, "ModConfig.json", new EnumerationOptions { MatchCasing = MatchCasing.CaseInsensitive, IgnoreInaccessible = true }).Any();

    /// <summary>The mods in priority order, each once (at its last position), and what was odd about them.</summary>
    public static string[] Distinct(IReadOnlyList<string> mods, List<string> warnings)
    {
        var full = mods.Select(Full).ToArray();
        var kept = new List<string>();
        for (int i = 0; i < full.Length; i++)
            if (!full.Skip(i + 1).Any(later => RealPaths.Same(later, full[i])))
                kept.Add(mods[i]);
        var keptFull = kept.Select(Full).ToList();
        foreach (var twice in full.Where(f => full.Count(g => RealPaths.Same(f, g)) > 1).Distinct())
        {
            int at = keptFull.FindIndex(k => RealPaths.Same(k, twice));
            warnings.Add($"--mod {twice} is given twice; it is used once, at its last position ({(at == 0 ? "first" : $"after {keptFull[at - 1]}")})");
        }
        foreach (var outer in keptFull)
            foreach (var inner in keptFull.Where(m => !RealPaths.Same(m, outer) && RealPaths.IsInside(outer, RealPaths.Of(m))))
                warnings.Add($"--mod {inner} is inside --mod {outer}; its files are applied twice, once under each");
        return [.. kept];
    }

    private static string Full(string folder) => Path.TrimEndingDirectorySeparator(Path.GetFullPath(folder));
}
