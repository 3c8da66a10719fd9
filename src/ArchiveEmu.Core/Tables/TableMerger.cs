using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Tables;

/// <summary>
/// Merges the mods' files of one table the way Persona Essentials does (docs/TABLES.md): a TBL container segment by
/// segment, a flat file as one run of fields, NAME.TBL per string. The result is an emulated file plus a report.
/// </summary>
internal static class TableMerger
{
    /// <summary>
    /// Merges <paramref name="mods"/> (load order, last wins) over <paramref name="original"/>, the game's own
    /// <paramref name="table"/>. A mod file that is not such a table is left out and named in the report's NotApplied;
    /// an original that is not one throws <see cref="InvalidDataException"/> naming it.
    /// </summary>
    public static MergedTable Merge(MergeableTable table, EntryInput original, IReadOnlyList<TableModFile> mods)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentNullException.ThrowIfNull(original);
        return table.Shape switch
        {
            TableShape.Segmented => MergeSegments(table, original, mods),
            TableShape.Flat => MergeFlat(table, original, mods),
            _ => NameTableMerger.Merge(table, original, mods),
        };
    }

    private static MergedTable MergeSegments(MergeableTable table, EntryInput original, IReadOnlyList<TableModFile> mods)
    {
        int count = table.SegmentCount;
        var originalSpans = TableContainer.TryRead(original, count, out var error)
            ?? throw new InvalidDataException($"{original}: the game's {table.Path} is not a {count}-segment table: {error}");
        var notApplied = new List<string>();
        var modSpans = new TableContainer.SegmentSpan[]?[mods.Count];
        for (int k = 0; k < mods.Count; k++)
        {
            modSpans[k] = TableContainer.TryRead(mods[k].File, count, out error);
            if (modSpans[k] is null)
                notApplied.Add($"{mods[k].Mod}: {mods[k].File}: not applied: not a {count}-segment {table.Path}: {error}");
            else if (modSpans[k]![^1].NextOffset < mods[k].File.Length)
                notApplied.Add($"{mods[k].Mod}: {mods[k].File}: the {mods[k].File.Length - modSpans[k]![^1].NextOffset} bytes after segment {count - 1} are not applied (Essentials reads {count} segments)");
        }

        var writer = new MergedTableWriter();
        var tally = new Tally(mods);
        Span<byte> header = stackalloc byte[4];
        for (int i = 0; i < count; i++)
        {
            var originalSide = Side(original, originalSpans[i]);
            var modSides = new SegmentSide?[mods.Count];
            for (int k = 0; k < mods.Count; k++)
            {
                if (modSpans[k] is { } spans)
                {
                    modSides[k] = Side(mods[k].File, spans[i]);
                    if (spans[i].Length < originalSpans[i].Length)
                        notApplied.Add($"{mods[k].Mod}: {mods[k].File}: segment {i} is shorter than the game's ({spans[i].Length} < {originalSpans[i].Length} bytes); a merge never shortens a segment, the game's bytes past {spans[i].Length} stay");
                }
            }
            var merge = SegmentMerge.Run(originalSide.Data, modSides.Select(s => s?.Data).ToList(), table.Segments[i]);
            tally.Add(i, merge);

            BinaryPrimitives.WriteInt32BigEndian(header, merge.Owners.Length);
            writer.WriteBytes(header);
            writer.WriteSegment(merge, originalSide, modSides);
            int padding = (int)(TableContainer.RoundUp(4 + merge.Owners.Length) - 4 - merge.Owners.Length);
            writer.WriteBytes(new byte[padding]);
        }
        return new MergedTable(writer.Build(), tally.Report(table.Path, notApplied));
    }

    private static MergedTable MergeFlat(MergeableTable table, EntryInput original, IReadOnlyList<TableModFile> mods)
    {
        var originalSide = Side(original, new TableContainer.SegmentSpan(0, checked((int)original.Length)));
        var modSides = mods.Select(m => (SegmentSide?)Side(m.File, new TableContainer.SegmentSpan(0, checked((int)m.File.Length)))).ToList();
        var notApplied = new List<string>();
        for (int k = 0; k < mods.Count; k++)
        {
            if (mods[k].File.Length < original.Length)
                notApplied.Add($"{mods[k].Mod}: {mods[k].File}: shorter than the game's {table.Path} ({mods[k].File.Length} < {original.Length} bytes); a merge never shortens it, the game's bytes past {mods[k].File.Length} stay");
        }
        var merge = SegmentMerge.Run(originalSide.Data, modSides.Select(s => s?.Data).ToList(), table.Segments[0]);
        var writer = new MergedTableWriter();
        writer.WriteSegment(merge, originalSide, modSides);
        var tally = new Tally(mods);
        tally.Add(0, merge);
        return new MergedTable(writer.Build(), tally.Report(table.Path, notApplied));
    }

    private static SegmentSide Side(EntryInput file, TableContainer.SegmentSpan span) =>
        new(file, span.DataOffset, TableContainer.ReadBytes(file, span.DataOffset, span.Length));

    /// <summary>Adds up, over a table's segments, what each mod changed and kept, and the contested fields.</summary>
    private sealed class Tally(IReadOnlyList<TableModFile> mods)
    {
        private readonly int[] _fields = new int[mods.Count];
        private readonly int[] _won = new int[mods.Count];
        private readonly List<TableConflict> _conflicts = [];

        public void Add(int segment, SegmentMerge merge)
        {
            for (int k = 0; k < mods.Count; k++)
            {
                if (merge.Changed[k] is not { } changed)
                    continue;
                _fields[k] += changed.Count;
                foreach (var (start, _) in changed)
                {
                    if (merge.Owners[start] == k)
                        _won[k]++;
                }
            }
            foreach (var (start, width, contenders) in merge.Contested.OrderBy(c => c.Start))
            {
                var names = contenders.Select(k => mods[k].Mod).ToList();
                _conflicts.Add(new TableConflict(segment, start, width, names, names[^1]));
            }
        }

        public TableMergeReport Report(string path, List<string> notApplied) =>
            new(path, mods.Select((m, k) => new TableModContribution(m.Mod, _fields[k], _won[k])).ToList(), _conflicts, notApplied);
    }
}
