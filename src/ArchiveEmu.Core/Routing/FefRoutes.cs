using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Reads a mod's <c>FEmulator/AFS</c>, <c>FEmulator/AWB</c>, <c>FEmulator/PAK</c> and legacy <c>AfsRedirector</c> folders by
/// FileEmulationFramework's published rules (docs/DESIGN.md, "Reloaded-II and FEF mods"): a folder's path below them is a route,
/// which applies to every game archive of that type whose full path ends with it, letter case aside (partial first
/// components included, as FEF allows); within one mod the longer route wins an entry. AFS and AWB entries are named by the
/// leading digits of the file name; PAK entries by their path below the archive's folder, through an entry that holds an
/// archive as FEF's "PAKs within PAKs" go. One instance serves one <see cref="ModRouter.WalkMods"/>: the game folder is listed
/// once, and only when a mod has such folders.
/// </summary>
internal sealed class FefRoutes(string gameRoot, IReadOnlyDictionary<string, IArchiveFormat> slices, Func<string, IArchiveFormat?> detect)
{
    /// <summary>One FEF emulator folder: where it is, what reports call it, the format it feeds, the extension FEF requires (null: any
    /// name), and how its files name entries.</summary>
    private sealed record Emulator(string Folder, string Rule, string Format, string? Extension, EntryAddressing Addressing);

    private readonly string _gameFull = Path.GetFullPath(gameRoot).Replace('\\', '/').TrimEnd('/');
    private readonly Dictionary<string, IArchiveFormat?> _formats = new(StringComparer.Ordinal);
    private readonly Dictionary<(string Route, string Format), string[]> _matches = new();
    private (string Relative, string Full)[]? _gameFiles; // full: the path FEF's routes are matched against, with '/'
    private ILookup<string, (string Relative, string Full)>? _byName;
    private InGameCode? _code;

    /// <summary>Adds the entries of one mod's FEF folders to the archives they match; <paramref name="archiveAt"/> gives a game archive's changes.</summary>
    public void Add(string modRoot, string modName, ReloadedModLayout layout, InGameCode code, Func<string, IArchiveFormat, ArchiveChanges> archiveAt, List<string> warnings)
    {
        _code = code; // a dummy file for a script compiled in the game is no entry
        var emulators = Emulators(modRoot, layout, warnings).OrderBy(e => IsSprite(e)).ToArray(); // PAK dummies claim their sprite folders first
        var spdFolders = emulators.Where(e => e.Format == "spd").SelectMany(e => SpdFolders(modRoot, e)).ToList();
        foreach (var emulator in emulators)
        {
            if (emulator.Addressing == EntryAddressing.ByName)
                AddNamed(modRoot, modName, emulator, archiveAt, warnings, spdFolders);
            else
                AddIndexed(modRoot, modName, emulator, emulator.Folder, archiveAt, warnings);
        }
    }

    private static IEnumerable<Emulator> Emulators(string modRoot, ReloadedModLayout layout, List<string> warnings)
    {
        if (layout.FEmulator is { } fEmulator)
        {
            foreach (var (path, isFolder) in GamePaths.EntriesInside(modRoot, fEmulator))
            {
                string type = Path.GetFileName(path).ToUpperInvariant();
                if (isFolder && type == "SPD")
                {
                    // FEF's SPD emulator takes both sprite containers from the one folder.
                    yield return new Emulator(path, "FEmulator/SPD", "spd", ".spd", EntryAddressing.ByName);
                    yield return new Emulator(path, "FEmulator/SPD", "spr", ".spr", EntryAddressing.ByName);
                }
                else if (isFolder && type is "AFS" or "AWB" or "PAK")
                    yield return type == "PAK" ? new Emulator(path, "FEmulator/PAK", "pak", null, EntryAddressing.ByName)
                        : new Emulator(path, $"FEmulator/{type}", type.ToLowerInvariant(), "." + type.ToLowerInvariant(), EntryAddressing.ByIndex);
                else if (isFolder && (InGameCode.IsCompilerFolder(type) || type == LanguageFolders.Folder))
                    continue; // classified by the walk: scripts compiled in the game (not applied), language folders
                else
                    warnings.Add($"{path}: ArchiveEmu reads FEmulator/AFS, FEmulator/AWB, FEmulator/PAK, FEmulator/SPD and FEmulator/L10N only (FEmulator/BF and "
                        + $"BMD are compiled in the game); this {(isFolder ? "folder" : "file")} is not used");
            }
        }
        if (layout.AfsRedirector is { } afsRedirector)
            yield return new Emulator(afsRedirector, "AfsRedirector", "afs", ".afs", EntryAddressing.ByIndex);
    }

    /// <summary>AFS, AWB: each folder holding files is a route; each file's leading digits name its entry.</summary>
    private void AddIndexed(string modRoot, string modName, Emulator emulator, string folder, Func<string, IArchiveFormat, ArchiveChanges> archiveAt, List<string> warnings)
    {
        var entries = GamePaths.EntriesInside(modRoot, folder).ToArray();
        foreach (var (sub, _) in entries.Where(e => e.IsFolder))
            AddIndexed(modRoot, modName, emulator, sub, archiveAt, warnings);
        var files = entries.Where(e => !e.IsFolder).Select(e => e.Path).ToArray();
        if (files.Length == 0)
            return;

        string route = RouteOf(emulator, folder);
        var archives = route.Length == 0 ? [] : Matches(route, emulator);
        if (archives.Length == 0)
        {
            warnings.Add(NoMatch(folder, emulator, route));
            return;
        }
        foreach (var file in files)
        {
            if (EntryFileName.FefIndex(Path.GetFileName(file)) is not { } index)
            {
                warnings.Add($"{file}: name does not start with an entry index (FEF: 5.adx, 5_name.adx), so FEF and ArchiveEmu leave it out");
                continue;
            }
            foreach (var archive in archives)
                archive.Changes(archiveAt).AddFile(modRoot, modName, file, EntryKey.ByIndex(index), delete: false, $"{emulator.Rule}/{route}", route.Length);
        }
    }

    /// <summary>
    /// PAK: a file's route is the shortest run of its leading folders that matches a game PAK; the rest of its path names the
    /// entry, or goes through one that holds an archive (FEF's "PAKs within PAKs"), by FEF's naming: no <c>.del</c>.
    /// </summary>
    private void AddNamed(string modRoot, string modName, Emulator emulator, Func<string, IArchiveFormat, ArchiveChanges> archiveAt, List<string> warnings,
        List<SpdFolder> spdFolders)
    {
        var unmatched = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var file in GamePaths.FilesInside(modRoot, emulator.Folder).Where(f => _code?.Applies(f) != false))
        {
            if (IsSprite(emulator) && (spdFolders.Any(f => f.Used && f.Files.Contains(file)) || !ForThisContainer(emulator, file)))
                continue; // reached through a PAK's dummy file (FEF's "Sprites in PAK Files"), or the other container type's
            var parts = RouteOf(emulator, file).Split('/');
            bool placed = false;
            for (int k = 1; k < parts.Length && !placed; k++)
            {
                string route = string.Join('/', parts[..k]);
                var archives = Matches(route, emulator);
                if (archives.Length == 0)
                    continue;
                placed = true;
                string entry = string.Join('/', parts[k..]);
                foreach (var archive in archives)
                {
                    if (emulator.Format == "pak" && SpdFolderFor($"{archive.Relative}/{entry}", spdFolders) is { } sprites)
                        AddThroughDummy(modRoot, modName, archive.Changes(archiveAt), entry, sprites, route.Length);
                    else
                        archive.Changes(archiveAt).AddPath(modRoot, modName, entry, file, $"{emulator.Rule}/{route}", route.Length, EntryFileName.ParseFef);
                }
            }
            if (!placed)
                unmatched.Add(Path.GetDirectoryName(file)!);
        }
        foreach (var folder in unmatched)
            warnings.Add(NoMatch(folder, emulator, RouteOf(emulator, folder)));
    }

    private static bool IsSprite(Emulator emulator) => emulator.Format is "spd" or "spr";

    /// <summary>FEmulator/SPD feeds two formats: an SPR pass takes the files in a <c>.spr</c> folder, the SPD pass all others (and warns of strays).</summary>
    private static bool ForThisContainer(Emulator emulator, string file)
    {
        bool inSpr = RouteOf(emulator, file).Split('/')[..^1].Any(p => p.EndsWith(".spr", StringComparison.OrdinalIgnoreCase));
        return emulator.Format == "spr" ? inSpr : !inSpr;
    }

    /// <summary>A folder of FEmulator/SPD holding files: its route (the SPD's path, or its end) and its files; Used once a PAK's dummy file reached it.</summary>
    private sealed record SpdFolder(string Route, string Folder, HashSet<string> Files)
    {
        public bool Used { get; set; }
    }

    /// <summary>The folders below FEmulator/SPD named like a sprite container (<c>.spd</c>, <c>.spr</c>) that hold files.</summary>
    private static IEnumerable<SpdFolder> SpdFolders(string modRoot, Emulator emulator)
    {
        var files = GamePaths.FilesInside(modRoot, emulator.Folder).ToArray();
        return files.GroupBy(f => Path.GetDirectoryName(f)!, StringComparer.Ordinal)
            .Select(g => new SpdFolder(RouteOf(emulator, g.Key), g.Key, g.ToHashSet(StringComparer.Ordinal)))
            .Where(f => f.Route.EndsWith(".spd", StringComparison.OrdinalIgnoreCase) || f.Route.EndsWith(".spr", StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// FEF's "Sprites in PAK Files": a PAK entry at <paramref name="innerPath"/> (the game PAK's path, then the entry's) whose FEmulator/SPD
    /// folder's route ends it, letter case aside, is emulated from that folder; the longest such route wins. Null: no folder, the file replaces the entry.
    /// </summary>
    private static SpdFolder? SpdFolderFor(string innerPath, List<SpdFolder> spdFolders) => spdFolders
        .Where(f => innerPath.Equals(f.Route, StringComparison.OrdinalIgnoreCase) || innerPath.EndsWith("/" + f.Route, StringComparison.OrdinalIgnoreCase))
        .MaxBy(f => f.Route.Length);

    /// <summary>The dummy file names the PAK entry; the sprite folder's files are the changes inside it, through the nested route.</summary>
    private static void AddThroughDummy(string modRoot, string modName, ArchiveChanges pak, string entry, SpdFolder sprites, int specificity)
    {
        sprites.Used = true;
        foreach (var file in sprites.Files.Order(StringComparer.Ordinal))
            pak.AddPath(modRoot, modName, $"{entry}/{Path.GetFileName(file)}", file, $"FEmulator/SPD/{sprites.Route}", specificity, EntryFileName.ParseFef);
    }

    private static string RouteOf(Emulator emulator, string path) =>
        Path.GetRelativePath(emulator.Folder, path).Replace(Path.DirectorySeparatorChar, '/') is var r && r == "." ? "" : r;

    private static string NoMatch(string folder, Emulator emulator, string route) =>
        $"mod folder {folder} ({emulator.Rule}/{route}) matches no {emulator.Format.ToUpperInvariant()} file of the game: FEF matches the end of a game file's "
        + "path, letter case aside; its files are not used";

    /// <summary>A game archive a route matched: its path as the game spells it, and its format.</summary>
    private readonly record struct Match(string Relative, IArchiveFormat Format)
    {
        public ArchiveChanges Changes(Func<string, IArchiveFormat, ArchiveChanges> archiveAt) => archiveAt(Relative, Format);
    }

    /// <summary>
    /// The game archives of the emulator's type whose full path ends with <paramref name="route"/>, letter case aside: FEF's rule
    /// (its docs/routing.md). FEF's AFS and AWB emulators also require the extension; its PAK emulator takes any name.
    /// </summary>
    private Match[] Matches(string route, Emulator emulator)
    {
        if (_matches.TryGetValue((route, emulator.Format), out var cached))
            return cached.Select(r => new Match(r, FormatOf(r)!)).ToArray();
        // A route with a '/' ends with a whole file name: only game files of that name can match.
        var candidates = route.LastIndexOf('/') is var slash and >= 0 ? GameFilesNamed(route[(slash + 1)..]) : GameFiles();
        var found = candidates
            .Where(f => f.Full.EndsWith(route, StringComparison.OrdinalIgnoreCase)).Select(f => f.Relative)
            .Where(r => emulator.Extension is null || r.EndsWith(emulator.Extension, StringComparison.OrdinalIgnoreCase))
            .Where(r => string.Equals(FormatOf(r)?.Name, emulator.Format, StringComparison.OrdinalIgnoreCase))
            .ToArray();
        _matches[(route, emulator.Format)] = found;
        return found.Select(r => new Match(r, FormatOf(r)!)).ToArray();
    }

    private IArchiveFormat? FormatOf(string relative)
    {
        if (!_formats.TryGetValue(relative, out var format))
            _formats[relative] = format = slices.TryGetValue(relative, out var slice) ? slice
                : GamePaths.Full(gameRoot, relative) is var full && GamePaths.FileExists(full) ? detect(full) : null;
        return format;
    }

    /// <summary>The game's files and the archives stored inside them (slices), relative and full with '/', in ordinal order.</summary>
    private (string Relative, string Full)[] GameFiles() => _gameFiles ??= ListGame(gameRoot, "", new HashSet<string>(StringComparer.Ordinal))
        .Concat(slices.Keys).Distinct().Order(StringComparer.Ordinal).Select(r => (r, $"{_gameFull}/{r}")).ToArray();

    private IEnumerable<(string Relative, string Full)> GameFilesNamed(string name) =>
        (_byName ??= GameFiles().ToLookup(f => f.Relative[(f.Relative.LastIndexOf('/') + 1)..], StringComparer.OrdinalIgnoreCase))[name];

    /// <summary>
    /// The files below a game folder, through symlinked folders too (the game folder is the player's: docs/DESIGN.md,
    /// "Paths and symlinks"); each real folder is listed once, so a link to a folder above does not loop.
    /// </summary>
    internal static IEnumerable<string> ListGame(string gameRoot, string relative, HashSet<string> seen)
    {
        var full = GamePaths.Full(gameRoot, relative);
        if (!seen.Add(GamePaths.RealPath(full)))
            yield break;
        (string Name, bool IsFolder)[] names;
        try
        {
            // Only a symlink costs a stat (to see whether it leads to a folder): the listing already says what the rest are.
            names = new System.IO.Enumeration.FileSystemEnumerable<(string, bool)>(full,
                static (ref System.IO.Enumeration.FileSystemEntry e) => (e.FileName.ToString(),
                    (e.Attributes & FileAttributes.ReparsePoint) != 0 ? Directory.Exists(e.ToFullPath()) : e.IsDirectory),
                new EnumerationOptions { AttributesToSkip = 0, IgnoreInaccessible = false }).ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            yield break; // a folder that cannot be listed holds no route's archive: FEF would not find one there either
        }
        foreach (var (name, isFolder) in names)
        {
            var child = relative.Length == 0 ? name : $"{relative}/{name}";
            if (isFolder)
            {
                foreach (var file in ListGame(gameRoot, child, seen))
                    yield return file;
            }
            else
                yield return child;
        }
    }
}
