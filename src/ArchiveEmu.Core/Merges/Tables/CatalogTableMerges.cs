using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// One game's table merges by its catalogue of <see cref="MergeableTable"/>s, as Persona.Merger.Common merges them for Persona
/// Essentials (P5R, P4G, P3P: <see cref="TableCatalog"/>) and Metaphor Essentials (<c>Merges/Metaphor</c>): a mod's file at a
/// catalogued table's path, or a companion beside it, is merged field by field over the game's original (docs/TABLES.md).
/// </summary>
/// <param name="game">The game as error lines name it.</param>
/// <param name="tables">The tables merged in it.</param>
internal sealed class CatalogTableMerges(string game, IReadOnlyList<MergeableTable> tables) : IGameMerges
{
    // Both Essentials find a table's mod files by their path in the CPK, never by name alone.
    public MergeClaim? ClaimByName(string fileName) => null;

    public MergeClaim? Claim(string entryPath)
    {
        if (TableCatalog.Find(tables, entryPath) is { } table)
            return new MergeClaim(table.Path, null);
        return TableCatalog.CompanionAt(tables, entryPath) is { } beside ? new MergeClaim(beside.Table.Path, beside.Companion) : null;
    }

    /// <summary>
    /// Merges against the first candidate (both Essentials look in their CPKs in order and take the first holding the table:
    /// p5rpc.modloader and mrfpc.modloader <c>MergeUtils.TryFindFileInAnyCpk</c>; Persona's language CPK comes first). A table
    /// whose text differs by language takes, when the game is not in English, only the files a mod's language folder gives
    /// (Persona Essentials' rule). A game table that is not one is reported and left to the last mod's file.
    /// </summary>
    public (EntryInput? Input, EntryMergeReport Report) Merge(EntryMergeRequest request)
    {
        var table = TableCatalog.Find(tables, request.Path) ?? throw new ArgumentException($"{request.Path} is no {game} table", nameof(request));
        var original = request.Originals[0];
        var originalInput = EntryInput.FromFileSlice(original.Content.Path, original.Content.Offset, original.Content.Length);
        var language = request.Language;
        var skipped = table.OneLanguage && !language.Equals("en", StringComparison.OrdinalIgnoreCase)
            ? request.Mods.Where(f => f.Localised is null).ToList() : [];
        var mods = request.Mods.Except(skipped).Select(f => new TableModFile(f.Mod, EntryInput.FromFile(f.Served), f.Companion)).ToList();
        var notLocalised = skipped.Select(f => $"{f.Mod}: {f.File} is not localised for {language} (no FEmulator/L10N/{language}/ file replaces it); "
            + $"{table.Path} differs by language, so, as Persona Essentials does, only files localised for the game's language are merged");
        if (mods.Count == 0)
            return (originalInput, new EntryMergeReport(table.Path, [], [], notLocalised.ToArray()) { Original = original.Archive });
        var (input, report) = MergeOne(original.Name, table, request.Mods[^1].Mod, originalInput, mods);
        return (input, report with { NotApplied = [.. notLocalised, .. report.NotApplied], Original = original.Archive });
    }

    private static (EntryInput?, EntryMergeReport) MergeOne(string name, MergeableTable table, string lastMod, EntryInput original, List<TableModFile> mods)
    {
        try
        {
            var merged = TableMerger.Merge(table, original, mods);
            return (EntryInput.FromVirtualFile(merged.File, $"merged {name}"), merged.Report);
        }
        catch (InvalidDataException e)
        {
            return (null, new EntryMergeReport(table.Path, [], [], [$"{e.Message}; not merged, {lastMod}'s file replaces it whole"]));
        }
    }
}
