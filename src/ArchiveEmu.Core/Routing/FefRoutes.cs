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
internal sealed class FefRoutes(string gameRoot, IReadOnlyDictionary<string, IArchiveFormat> slices, Func<string, IArchiveFormat?> detect, GameCpks cpks)
{
    /// <summary>One FEF emulator folder: where it is, what reports call it, the format it feeds, the extension FEF requires (null: any
    /// name), and how its files name entries.</summary>
    private sealed record Emulator(string Folder, string Rule, string Format, string? Extension, EntryAddressing Addressing);

    private readonly string _gameFull = Path.GetFullPath(gameRoot).Replace('\\', '/').TrimEnd('/');
    private readonly Dictionary<string, IArchiveFormat?> _formats = new(StringComparer.Ordinal);
    private readonly Dictionary<(string Route, string Format), Match[]> _matches = new();
    private readonly Dictionary<(string Route, string Format), string> _misses = new(); // a CPK entry a route names that is not of its type
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
        if (layout.FEmulator is not null)
        {
            foreach (var (path, isFolder) in layout.FEmulatorEntries)
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
                archive.Add(archiveAt, modRoot, modName, Path.GetFileName(file), file, $"{emulator.Rule}/{route}", route.Length, (_, _, _) => (EntryKey.ByIndex(index), false));
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
            var path = RouteOf(emulator, file);
            var parts = path.Split('/');
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
                    if (emulator.Format == "pak" && SpdFolderFor($"{archive.Path}/{entry}", spdFolders) is { } sprites)
                        AddThroughDummy(modRoot, modName, archive, archiveAt, entry, sprites, route.Length);
                    else
                        archive.Add(archiveAt, modRoot, modName, entry, file, $"{emulator.Rule}/{route}", route.Length, EntryFileName.ParseFef);
                }
            }
            if (placed)
                continue;
            if (Matches(path, emulator) is [var whole, ..])
                warnings.Add($"mod file {file} is named like the {emulator.Format.ToUpperInvariant()} {whole.Path}, but {emulator.Rule}/ takes the files "
                    + "inside a folder of the archive's name, not a whole archive; it is not used ("
                    + (whole.Inside is null ? "Redirector/ replaces a whole game file)" : "CRIFsV2Hook/CPK/<any folder>/ replaces a whole CPK entry)"));
            else
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
    /// folder's route ends it (on the string, as FEF compares), letter case aside, is emulated from that folder; the longest such route wins. Null: no folder, the file replaces the entry.
    /// </summary>
    private static SpdFolder? SpdFolderFor(string innerPath, List<SpdFolder> spdFolders) => spdFolders
        .Where(f => innerPath.EndsWith(f.Route, StringComparison.OrdinalIgnoreCase))
        .MaxBy(f => f.Route.Length);

    /// <summary>The dummy file names the PAK entry; the sprite folder's files are the changes inside it, through the nested route.</summary>
    private static void AddThroughDummy(string modRoot, string modName, Match pak, Func<string, IArchiveFormat, ArchiveChanges> archiveAt, string entry,
        SpdFolder sprites, int specificity)
    {
        sprites.Used = true;
        foreach (var file in sprites.Files.Order(StringComparer.Ordinal))
            pak.Add(archiveAt, modRoot, modName, $"{entry}/{Path.GetFileName(file)}", file, $"FEmulator/SPD/{sprites.Route}", specificity, EntryFileName.ParseFef);
    }

    private static string RouteOf(Emulator emulator, string path) =>
        Path.GetRelativePath(emulator.Folder, path).Replace(Path.DirectorySeparatorChar, '/') is var r && r == "." ? "" : r;

    private string NoMatch(string folder, Emulator emulator, string route) =>
        $"mod folder {folder} ({emulator.Rule}/{route}) matches no {emulator.Format.ToUpperInvariant()} file of the game and no {emulator.Format.ToUpperInvariant()} "
        + "entry of its CPKs: FEF matches the end of a game file's path, Persona Essentials a CPK entry's whole path from the CPK's root, letter case aside; "
        + "its files are not used" + (Miss(route, emulator) is { } miss ? $" ({miss})" : "");

    /// <summary>Why the longest leading run of the route that names a CPK entry is no match, if one does.</summary>
    private string? Miss(string route, Emulator emulator)
    {
        for (int end = route.Length; end > 0; end = route.LastIndexOf('/', end - 1))
        {
            if (_misses.TryGetValue((route[..end], emulator.Format), out var miss))
                return miss;
        }
        return null;
    }

    /// <summary>
    /// An archive a route matched: a game archive (its path as the game spells it, and its format), or an archive stored as an
    /// entry of a game CPK (the CPK, and the entry with the original it is emulated from).
    /// </summary>
    private sealed record Match(string Relative, IArchiveFormat Format, CpkEntryArchive? Inside = null)
    {
        /// <summary>Where the archive is: the game file, or the CPK's path then the entry's.</summary>
        public string Path => Inside is null ? Relative : $"{Relative}/{Inside.Name}";

        /// <summary>Adds a mod file at <paramref name="innerPath"/> inside the matched archive (an entry, or a path through one).</summary>
        public void Add(Func<string, IArchiveFormat, ArchiveChanges> archiveAt, string modRoot, string modName, string innerPath, string file, string rule,
            int specificity, EntryNaming naming)
        {
            var changes = archiveAt(Relative, Format);
            if (Inside is null)
                changes.AddPath(modRoot, modName, innerPath, file, rule, specificity, naming);
            else
                changes.AddInside(modRoot, modName, Inside.Name, Inside.Original, Inside.Format, innerPath, file, rule, specificity, naming);
        }
    }

    /// <summary>An entry of a game CPK holding an archive, as the CPK spells it, and the original the emulated archive is built from.</summary>
    private sealed record CpkEntryArchive(string Name, ArchiveSource Original, IArchiveFormat Format);

    /// <summary>
    /// The game archives of the emulator's type whose full path ends with <paramref name="route"/>, letter case aside: FEF's rule
    /// (its docs/routing.md). FEF's AFS and AWB emulators also require the extension; its PAK emulator takes any name. Then the
    /// archives stored in the game's CPKs that the route names (<see cref="CpkMatches"/>).
    /// </summary>
    private Match[] Matches(string route, Emulator emulator)
    {
        if (_matches.TryGetValue((route, emulator.Format), out var cached))
            return cached;
        // A route with a '/' ends with a whole file name: only game files of that name can match.
        var candidates = route.LastIndexOf('/') is var slash and >= 0 ? GameFilesNamed(route[(slash + 1)..]) : GameFiles();
        var found = candidates
            .Where(f => f.Full.EndsWith(route, StringComparison.OrdinalIgnoreCase)).Select(f => f.Relative)
            .Where(r => emulator.Extension is null || r.EndsWith(emulator.Extension, StringComparison.OrdinalIgnoreCase))
            .Where(r => string.Equals(FormatOf(r)?.Name, emulator.Format, StringComparison.OrdinalIgnoreCase))
            .Select(r => new Match(r, FormatOf(r)!))
            .Concat(CpkMatches(route, emulator))
            .ToArray();
        return _matches[(route, emulator.Format)] = found;
    }

    /// <summary>
    /// The entries of the game's named CPKs the route names, holding an archive of the emulator's type: by the entry's whole path
    /// from the CPK's root, letter case aside, as Persona Essentials finds a PAK or SPD (p5rpc.modloader Merging/PakMerger.cs,
    /// SpdMerger.cs); an AWB or AFS route, which FEF's emulators match by the end of a path, then by the end of the entry's path, on the
    /// string as FEF compares and as <see cref="Matches"/> takes game files (<c>ound/bgm.afs</c> and <c>gm.afs</c> find <c>SOUND/BGM.AFS</c>).
    /// Essentials builds a PAK or SPD from the first CPK holding it (language CPK, then base) and binds the result over that path in
    /// every CPK; FEF's AWB and AFS emulators change each file from its own original. One dictionary lookup per CPK; only the
    /// entries named are opened.
    /// </summary>
    private IEnumerable<Match> CpkMatches(string route, Emulator emulator)
    {
        var named = cpks.EssentialsOrder.Where(c => c.Names.ContainsKey(route)).Select(c => (Cpk: c, Entry: c.Names[route])).ToList();
        if (named.Count == 0 && emulator.Format is "awb" or "afs")
            named = cpks.EssentialsOrder.SelectMany(c => (route.LastIndexOf('/') is var slash and >= 0 ? c.NamedFile(route[(slash + 1)..]) : c.Names.Values)
                .Where(e => e.Name!.EndsWith(route, StringComparison.OrdinalIgnoreCase)).Select(e => (Cpk: c, Entry: e))).ToList();
        var archives = named.Where(n => emulator.Extension is null || n.Entry.Name!.EndsWith(emulator.Extension, StringComparison.OrdinalIgnoreCase))
            .Select(n => (n.Cpk, n.Entry, Opened: cpks.Open(n.Cpk, n.Entry)))
            .Where(n => string.Equals(n.Opened.Format?.Name, emulator.Format, StringComparison.OrdinalIgnoreCase))
            .Select(n => (n.Cpk, n.Entry, n.Opened.Source, Format: n.Opened.Format!)).ToList();
        if (archives.Count == 0)
        {
            if (named.FirstOrDefault() is ({ } cpk, { } entry))
                _misses[(route, emulator.Format)] = $"{cpk.Relative} holds {entry.Name}, but it is "
                    + (cpks.Open(cpk, entry).Format is { } f ? FormatWithArticle(f.Name) : "no archive ArchiveEmu knows");
            return [];
        }
        bool boundEverywhere = emulator.Format is "pak" or "spd";
        var first = archives[0];
        return archives.Select(a => new Match(a.Cpk.Relative, a.Cpk.Format, boundEverywhere
            ? new CpkEntryArchive(a.Entry.Name!, first.Source, first.Format)
            : new CpkEntryArchive(a.Entry.Name!, a.Source, a.Format)));
    }

    /// <summary>"an AFS", "a PAK": the article as the letters are read out.</summary>
    private static string FormatWithArticle(string format) =>
        ("AEFHILMNORSX".Contains(char.ToUpperInvariant(format[0])) ? "an " : "a ") + format.ToUpperInvariant();

    private IArchiveFormat? FormatOf(string relative)
    {
        if (!_formats.TryGetValue(relative, out var format))
            _formats[relative] = format = slices.TryGetValue(relative, out var slice) ? slice
                : GamePaths.Full(gameRoot, relative) is var full && GamePaths.FileExists(full) ? detect(full) : null;
        return format;
    }

    /// <summary>The game's files and the archives stored inside them (slices), relative and full with '/', in ordinal order.</summary>
    private (string Relative, string Full)[] GameFiles() => _gameFiles ??= GameTree.Files(gameRoot)
        .Concat(slices.Keys).Distinct().Order(StringComparer.Ordinal).Select(r => (r, $"{_gameFull}/{r}")).ToArray();

    private IEnumerable<(string Relative, string Full)> GameFilesNamed(string name) =>
        (_byName ??= GameFiles().ToLookup(f => f.Relative[(f.Relative.LastIndexOf('/') + 1)..], StringComparer.OrdinalIgnoreCase))[name];

}
