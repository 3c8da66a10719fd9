namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>Where a merged table's segments lie, for its <see cref="EntryMergeReport"/>.</summary>
internal static class TableSegments
{
    /// <summary>
    /// The segments of <paramref name="merged"/>, found by reading it back as <paramref name="table"/>'s container (a flat
    /// file is one segment), so the listing shows what is served; <paramref name="modsOf"/> gives segment i's mods.
    /// </summary>
    public static IReadOnlyList<MergedSegment> Locate(MergeableTable table, VirtualFiles.VirtualFile merged, Func<int, IReadOnlyList<string>> modsOf)
    {
        if (table.Shape == TableShape.Flat)
            return [new MergedSegment(0, 0, checked((int)merged.Length), modsOf(0))];
        var spans = TableContainer.TryRead(table, Formats.EntryInput.FromVirtualFile(merged, table.Path), out var error)
            ?? throw new InvalidOperationException($"the merged {table.Path} does not read back as its container: {error}");
        return spans.Select((s, i) => new MergedSegment(i, s.DataOffset, s.Length, modsOf(i))).ToArray();
    }
}

/// <summary>A merged table: the emulated file to serve in place of the original entry, and how it was merged.</summary>
internal sealed record MergedTable(VirtualFiles.VirtualFile File, EntryMergeReport Report);

/// <summary>
/// One mod's file for a mergeable table, in load order; <see cref="Mod"/> names the mod in the report. A file that
/// replaces one segment whole (<see cref="MergeableTable.Companions"/>) gives its name as <see cref="Companion"/>.
/// </summary>
internal sealed record TableModFile(string Mod, Formats.EntryInput File, string? Companion = null);
