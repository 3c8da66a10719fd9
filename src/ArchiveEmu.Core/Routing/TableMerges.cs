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
    private readonly string _prefix; // this archive's path from its CPK's root, with a trailing '/', or "" for the CPK
    private readonly Dictionary<EntryKey, (MergeableTable Table, List<(string Mod, string File)> Files)> _files;

    private TableMerges(PersonaGame game, string prefix, IEqualityComparer<EntryKey> keys) => (_game, _prefix, _files) = (game, prefix, new(keys));

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
        return PersonaGames.Detect(full[..^(relativePath.Length + 1)]) is { } game ? new TableMerges(game, "", keys) : null;
    }

    /// <summary>The same for the archive stored in this one's entry <paramref name="folder"/>, whose entries <paramref name="keys"/> compares.</summary>
    public TableMerges Inside(string folder, IEqualityComparer<EntryKey> keys) => new(_game, $"{_prefix}{folder}/", keys);

    /// <summary>Notes a mod's file for <paramref name="key"/> (null: the mod deletes the entry, which forgets the files before).</summary>
    public void Note(EntryKey key, string mod, string? file)
    {
        if (key.Name is null || TableCatalog.Find(_game, _prefix + key.Name) is not { } table)
            return;
        if (file is null)
        {
            _files.Remove(key);
            return;
        }
        if (!_files.TryGetValue(key, out var noted))
            _files.Add(key, noted = (table, []));
        if (noted.Files.Count > 0 && noted.Files[^1].Mod == mod)
            noted.Files[^1] = (mod, file); // the same mod's more specific rule
        else
            noted.Files.Add((mod, file));
    }

    /// <summary>
    /// Merges each noted table whose entry the original holds: the entry's new input (a merged emulated file) and the report.
    /// <paramref name="contentOf"/> finds an entry's bytes in the original. A game table that is not one is reported and left
    /// to the last mod's file.
    /// </summary>
    public IEnumerable<(EntryKey Key, EntryInput? Input, TableMergeReport Report)> Merge(Func<string, ArchiveSource?> contentOf)
    {
        foreach (var (key, (table, files)) in _files)
        {
            if (contentOf(key.Name!) is not { } original)
                continue; // a table the game does not have: the last mod's file is a new entry
            var mods = files.Select(f => new TableModFile(f.Mod, EntryInput.FromFile(f.File))).ToList();
            yield return MergeOne(key, table, files, EntryInput.FromFileSlice(original.Path, original.Offset, original.Length), mods);
        }
    }

    private static (EntryKey, EntryInput?, TableMergeReport) MergeOne(EntryKey key, MergeableTable table, List<(string Mod, string File)> files,
        EntryInput original, List<TableModFile> mods)
    {
        try
        {
            var merged = TableMerger.Merge(table, original, mods);
            return (key, EntryInput.FromVirtualFile(merged.File, $"merged {key}"), merged.Report);
        }
        catch (InvalidDataException e)
        {
            return (key, null, new TableMergeReport(table.Path, [], [], [$"{e.Message}; not merged, {files[^1].Mod}'s file replaces it whole"]));
        }
    }
}
