namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Spells a mod path as the game folder does, one component at a time (docs/DESIGN.md, "Letter case"): the game entry
/// spelled exactly so, else the one that differs only in letter case, else the mod's own spelling (a new file or folder,
/// spelled as the first mod that adds it). Letter case compares as Windows and NTFS do: ordinal, each UTF-16 unit made
/// upper case by the invariant table (<see cref="StringComparer.OrdinalIgnoreCase"/>), so É/é and Ä/ä match but
/// neither Unicode normalisation nor ß/SS does. One instance serves one <see cref="ModRouter.WalkMods"/>: each game
/// folder is listed once, whatever the number of mod files that look it up.
/// </summary>
internal sealed class GameSpelling(string gameRoot, IEnumerable<string> sliceRoutes)
{
    private static readonly StringComparer Case = StringComparer.OrdinalIgnoreCase;
    private readonly Dictionary<string, Folder> _folders = new(StringComparer.Ordinal);
    private readonly string[] _sliceRoutes = sliceRoutes.ToArray();

    /// <summary>
    /// The game-relative path of <paramref name="name"/> inside <paramref name="parent"/> (already spelled as the game does,
    /// "" for the root), and whether the game has it. <paramref name="modPath"/> names the mod's file in the error thrown when
    /// the game has several entries that differ only in case and none is spelled as the mod does.
    /// </summary>
    public (string Relative, bool InGame) Child(string parent, bool parentInGame, string name, string modPath)
    {
        if (!_folders.TryGetValue(parent, out var folder))
            _folders[parent] = folder = new Folder(parentInGame ? TryList(parent) : []);

        if (folder.Game is null) // a folder that cannot be listed (no read permission) still opens names spelled exactly
        {
            if (Path.Exists(GamePaths.Full(gameRoot, Join(parent, name))))
                return (Join(parent, name), true);
        }
        else if (folder.Game.TryGetValue(name, out var spellings))
        {
            string? found = spellings.Length == 1 ? spellings[0] : Array.Find(spellings, s => s == name);
            return found is not null ? (Join(parent, found), true)
                : throw new IOException($"{modPath}: the game folder {gameRoot} has {string.Join(" and ", spellings.Order(StringComparer.Ordinal).Select(s => Join(parent, s)))}, "
                    + "which differ only in letter case; spell the mod's as one of them exactly");
        }
        if (!folder.Added.TryGetValue(name, out var first))
            folder.Added[name] = first = name;
        return (Join(parent, first), false);
    }

    /// <summary>
    /// The game's names in <paramref name="parent"/> (spelled as the game does, "" for the root), from the one listing
    /// <see cref="Child"/> keeps; none when it cannot be listed.
    /// </summary>
    public IEnumerable<string> GameNames(string parent)
    {
        if (!_folders.TryGetValue(parent, out var folder))
            _folders[parent] = folder = new Folder(TryList(parent));
        return folder.Game?.Values.SelectMany(spellings => spellings) ?? [];
    }

    /// <summary>
    /// The names in a game folder, or for a game file that holds archives (slices), the next components of their routes;
    /// null when the folder cannot be listed.
    /// </summary>
    private IEnumerable<string>? TryList(string relative)
    {
        try
        {
            return List(relative).ToArray();
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    private IEnumerable<string> List(string relative)
    {
        var full = GamePaths.Full(gameRoot, relative);
        if (Directory.Exists(full))
            return new System.IO.Enumeration.FileSystemEnumerable<string>(full, static (ref System.IO.Enumeration.FileSystemEntry e) => e.FileName.ToString(),
                new EnumerationOptions { AttributesToSkip = 0, IgnoreInaccessible = false });
        var prefix = relative + "/";
        return _sliceRoutes.Where(r => r.StartsWith(prefix, StringComparison.Ordinal)).Select(r => r[prefix.Length..].Split('/')[0]).Distinct();
    }

    private static string Join(string parent, string name) => parent.Length == 0 ? name : $"{parent}/{name}";

    /// <summary>One folder's game names grouped by case-insensitive name, and the new names mods gave it so far.</summary>
    private sealed class Folder(IEnumerable<string>? gameNames)
    {
        public Dictionary<string, string[]>? Game { get; } = gameNames?.GroupBy(n => n, Case).ToDictionary(g => g.Key, g => g.ToArray(), Case);
        public Dictionary<string, string> Added { get; } = new(Case);
    }
}
