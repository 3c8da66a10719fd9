namespace ArchiveEmu.Core.Tables;

/// <summary>What one mod gave a merged table: the fields it changed from the original, and how many of them it kept (no later mod changed them).</summary>
internal sealed record TableModContribution(string Mod, int Fields, int FieldsWon);

/// <summary>
/// A field two or more mods changed: in segment <see cref="Segment"/>, <see cref="Width"/> bytes at <see cref="Offset"/>
/// of the segment's data (for NAME.TBL: segment pair, string index, the winner's string length), the mods in load order,
/// and the one whose bytes are served (the last).
/// </summary>
internal sealed record TableConflict(int Segment, long Offset, int Width, IReadOnlyList<string> Mods, string Winner);

/// <summary>How a table was merged: per mod what it contributed, every field several mods changed, and every mod file (or part of one) not applied, with why.</summary>
internal sealed record TableMergeReport(
    string Path,
    IReadOnlyList<TableModContribution> Mods,
    IReadOnlyList<TableConflict> Conflicts,
    IReadOnlyList<string> NotApplied)
{
    /// <summary>Where each segment's data lies in the merged file and which mods changed it (empty when the table was not merged).</summary>
    public IReadOnlyList<TableSegment> Segments { get; init; } = [];

    /// <summary>The game folder's CPK whose copy of the table was the original (Persona Essentials' choice, docs/TABLES.md); null until routing sets it.</summary>
    public string? Original { get; init; }
}

/// <summary>Segment <see cref="Index"/> of a merged table: <see cref="Length"/> bytes of data at <see cref="Offset"/> of the merged file, changed by <see cref="Mods"/> (load order).</summary>
internal sealed record TableSegment(int Index, long Offset, int Length, IReadOnlyList<string> Mods)
{
    /// <summary>
    /// The segments of <paramref name="merged"/>, found by reading it back as <paramref name="table"/>'s container (a flat
    /// file is one segment), so the listing shows what is served; <paramref name="modsOf"/> gives segment i's mods.
    /// </summary>
    public static IReadOnlyList<TableSegment> Locate(MergeableTable table, VirtualFiles.VirtualFile merged, Func<int, IReadOnlyList<string>> modsOf)
    {
        if (table.Shape == TableShape.Flat)
            return [new TableSegment(0, 0, checked((int)merged.Length), modsOf(0))];
        var spans = TableContainer.TryRead(table, Formats.EntryInput.FromVirtualFile(merged, table.Path), out var error)
            ?? throw new InvalidOperationException($"the merged {table.Path} does not read back as its container: {error}");
        return spans.Select((s, i) => new TableSegment(i, s.DataOffset, s.Length, modsOf(i))).ToArray();
    }
}

/// <summary>A merged table: the emulated file to serve in place of the original entry, and how it was merged.</summary>
internal sealed record MergedTable(VirtualFiles.VirtualFile File, TableMergeReport Report);

/// <summary>
/// One mod's file for a mergeable table, in load order; <see cref="Mod"/> names the mod in the report. A file that
/// replaces one segment whole (<see cref="MergeableTable.Companions"/>) gives its name as <see cref="Companion"/>.
/// </summary>
internal sealed record TableModFile(string Mod, Formats.EntryInput File, string? Companion = null);
