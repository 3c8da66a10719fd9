using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.Tables;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The Persona tables mods give inside one archive (docs/TABLES.md): every mod's file for such an entry, in load order, so
/// the entry is served merged field by field (Persona Essentials' rule) instead of the later mod replacing it whole.
/// Known only inside a CPK of a game folder holding P5R.exe, P4G.exe or P3P.exe, and inside the archives stored in it.
/// </summary>
internal sealed class TableMerges
{
    private readonly PersonaGame _game;
    private readonly string _cpk; // the game folder's CPK this archive is, or is stored in
    private readonly string _prefix; // this archive's path from its CPK's root, with a trailing '/', or "" for the CPK
    private readonly Dictionary<EntryKey, (MergeableTable Table, List<(string Mod, string File, string? Companion)> Files)> _files;

    private TableMerges(PersonaGame game, string cpk, string prefix, IEqualityComparer<EntryKey> keys) =>
        (_game, _cpk, _prefix, _files) = (game, cpk, prefix, new(keys));

    /// <summary>
    /// For a CPK of the game folder (<paramref name="gamePath"/> is its file, <paramref name="relativePath"/> its path in the
    /// folder), its entries compared by <paramref name="keys"/> (the format's); null for any other archive.
    /// </summary>
    public static TableMerges? ForGameArchive(string gamePath, string relativePath, IArchiveFormat format, ArchiveSource? slice, IEqualityComparer<EntryKey> keys)
    {
        if (slice is not null || format is not CpkFormat)
            return null;
        var full = Path.GetFullPath(gamePath).Replace('\\', '/');
        if (!full.EndsWith("/" + relativePath, StringComparison.Ordinal))
            return null;
        return PersonaGames.Detect(full[..^(relativePath.Length + 1)]) is { } game ? new TableMerges(game, relativePath, "", keys) : null;
    }

    /// <summary>The same for the archive stored in this one's entry <paramref name="folder"/>, whose entries <paramref name="keys"/> compares.</summary>
    public TableMerges Inside(string folder, IEqualityComparer<EntryKey> keys) => new(_game, _cpk, $"{_prefix}{folder}/", keys);

    /// <summary>
    /// Notes a mod's file for <paramref name="key"/> (null: the mod deletes the entry, which forgets the files before), or for
    /// the table whose segment it replaces whole (P4G's and P3P's <c>MSGTBL.bmd</c> beside <c>MSG.TBL</c>): that file also stays
    /// an entry of its own, as under Essentials, where FileEmulationFramework still adds it to the PAK.
    /// </summary>
    public void Note(EntryKey key, string mod, string? file)
    {
        if (key.Name is null)
            return;
        string? companion = null;
        if (TableCatalog.Find(_game, _prefix + key.Name) is not { } table)
        {
            if (file is null || TableCatalog.CompanionAt(_game, _prefix + key.Name) is not { } beside
                || !beside.Table.Path.StartsWith(_prefix, StringComparison.OrdinalIgnoreCase))
                return;
            (table, companion) = beside;
            var tableName = table.Path[_prefix.Length..];
            var noted = _files.Keys.Where(k => string.Equals(k.Name, tableName, StringComparison.OrdinalIgnoreCase)).ToList();
            key = noted.Count > 0 ? noted[0] : EntryKey.ByName(tableName);
        }
        if (file is null)
        {
            _files.Remove(key);
            return;
        }
        if (!_files.TryGetValue(key, out var files))
            _files.Add(key, files = (table, []));
        if (files.Files.Count > 0 && files.Files[^1].Mod == mod && files.Files[^1].Companion == companion)
            files.Files[^1] = (mod, file, companion); // the same mod's more specific rule
        else
            files.Files.Add((mod, file, companion));
    }

    /// <summary>This archive as one holding the tables mods give (their catalog paths, maybe none), for <see cref="TableOriginals"/>.</summary>
    public TableHolder Holder(Func<string, (string Name, ArchiveSource Content)?> contentOf) =>
        new(_cpk, _prefix, contentOf, _files.Values.Select(f => f.Table.Path).ToHashSet(StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// Merges each noted table whose entry the original holds: the entry (as the archive spells it), its new input (a merged
    /// emulated file) and the report. <paramref name="contentOf"/> finds an entry and its bytes in this archive's original. Each
    /// table is merged against the original <paramref name="originals"/> chooses among the game's CPKs (for a table inside an
    /// archive stored in a CPK, among the CPKs' copies of that archive), once for all of them. A game table that is not one is
    /// reported and left to the last mod's file. Each mod file is read as the mod's language folder gives it, and a table whose
    /// text differs by language takes, when the game is not in English, only the files so localised (Essentials' rule).
    /// </summary>
    public IEnumerable<(EntryKey Key, EntryInput? Input, TableMergeReport Report)> Merge(Func<string, (string Name, ArchiveSource Content)?> contentOf,
        TableOriginals originals)
    {
        foreach (var (key, (table, files)) in _files)
        {
            if (contentOf(key.Name!) is not { } own)
                continue; // a table the game does not have: the last mod's file is a new entry
            var original = originals.Original(table.Path) ?? (_cpk, own.Name, own.Content);
            var fileKeys = files.Select(f => $"{f.Mod}|{f.File}|{f.Companion}");
            var (input, report) = originals.Merged(original.Cpk, table.Path, fileKeys, () => MergeAll(table, files, original, originals));
            yield return (EntryKey.ByName(own.Name), input, report);
        }
    }

    private static (EntryInput?, TableMergeReport) MergeAll(MergeableTable table, List<(string Mod, string File, string? Companion)> files,
        (string Cpk, string Name, ArchiveSource Content) original, TableOriginals originals)
    {
        var (localised, language) = (originals.Localised, originals.Language);
        var originalInput = EntryInput.FromFileSlice(original.Content.Path, original.Content.Offset, original.Content.Length);
        var skipped = table.OneLanguage && !language.Equals("en", StringComparison.OrdinalIgnoreCase)
            ? files.Where(f => !localised.ContainsKey(f.File)).ToList() : [];
        var mods = files.Except(skipped)
            .Select(f => new TableModFile(f.Mod, EntryInput.FromFile(localised.TryGetValue(f.File, out var to) ? to.File : f.File), f.Companion)).ToList();
        var notLocalised = skipped.Select(f => $"{f.Mod}: {f.File} is not localised for {language} (no FEmulator/L10N/{language}/ file replaces it); "
            + $"{table.Path} differs by language, so, as Persona Essentials does, only files localised for the game's language are merged");
        if (mods.Count == 0)
            return (originalInput, new TableMergeReport(table.Path, [], [], notLocalised.ToArray()) { Original = original.Cpk });
        var (input, report) = MergeOne(EntryKey.ByName(original.Name), table, files[^1].Mod, originalInput, mods);
        return (input, report with { NotApplied = [.. notLocalised, .. report.NotApplied], Original = original.Cpk });
    }

    private static (EntryInput?, TableMergeReport) MergeOne(EntryKey key, MergeableTable table, string lastMod,
        EntryInput original, List<TableModFile> mods)
    {
        try
        {
            var merged = TableMerger.Merge(table, original, mods);
            return (EntryInput.FromVirtualFile(merged.File, $"merged {key}"), merged.Report);
        }
        catch (InvalidDataException e)
        {
            return (null, new TableMergeReport(table.Path, [], [], [$"{e.Message}; not merged, {lastMod}'s file replaces it whole"]));
        }
    }
}
