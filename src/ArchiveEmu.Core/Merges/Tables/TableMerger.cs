using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Merges the mods' files of one table the way Persona Essentials does (docs/TABLES.md): a container segment by
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
            TableShape.Flat => MergeFlat(table, original, mods),
            TableShape.NameTable => NameTableMerger.Merge(table, original, mods),
            _ => MergeSegments(table, original, mods),
        };
    }

    private static MergedTable MergeSegments(MergeableTable table, EntryInput original, IReadOnlyList<TableModFile> mods)
    {
        int count = table.SegmentCount;
        var originalSpans = TableContainer.TryRead(table, original, out var error)
            ?? throw new InvalidDataException($"{original}: the game's {table.Path} is not a {count}-segment table: {error}");
        var notApplied = new List<string>();
        var modSpans = new TableContainer.SegmentSpan[]?[mods.Count];
        var companions = new Dictionary<int, List<int>>(); // segment -> the mods replacing it whole, in load order
        for (int k = 0; k < mods.Count; k++)
        {
            var (mod, file, companion) = mods[k];
            if (companion is not null)
            {
                if (!table.Companions.TryGetValue(companion, out int segment))
                    throw new ArgumentException($"{companion} replaces no segment of {table.Path}", nameof(mods));
                if (!companions.TryGetValue(segment, out var givers))
                    companions.Add(segment, givers = []);
                givers.Add(k);
                continue;
            }
            modSpans[k] = TableContainer.TryRead(table, file, out error);
            if (modSpans[k] is not { } spans)
                notApplied.Add($"{mod}: {file}: not applied: not a {count}-segment {table.Path}: {error}");
            else if (TableContainer.End(table, spans) < file.Length)
                notApplied.Add($"{mod}: {file}: the {file.Length - TableContainer.End(table, spans)} bytes after segment {count - 1} are not applied (Essentials reads {count} segments)");
        }

        var tally = new Tally(mods);
        var data = new List<Action<MergedTableWriter>>(count); // writes each segment's data once every length is known
        var lengths = new int[count];
        for (int i = 0; i < count; i++)
        {
            var originalSide = Side(original, originalSpans[i]);
            if (companions.TryGetValue(i, out var givers))
            {
                var winner = mods[givers[^1]].File;
                int length = lengths[i] = checked((int)winner.Length);
                var head = TableContainer.ReadBytes(winner, 0, Math.Min(length, MergedTableWriter.MinSliceLength));
                data.Add(w => w.WriteRun(winner, 0, length, head));
                tally.AddReplaced(i, givers, length);
                ReportIgnoredEdits(table, i, originalSide, mods, modSpans, notApplied, $"{mods[givers[^1]].Companion} replaces it whole");
                continue;
            }
            if (table.Segments[i] is not { } layout)
            {
                lengths[i] = originalSide.Data.Length;
                data.Add(w => w.WriteRun(original, originalSide.DataOffset, originalSide.Data.Length, originalSide.Data));
                ReportIgnoredEdits(table, i, originalSide, mods, modSpans, notApplied, "Essentials merges no field of it");
                continue;
            }
            var modSides = new SegmentSide?[mods.Count];
            for (int k = 0; k < mods.Count; k++)
            {
                if (modSpans[k] is not { } spans)
                    continue;
                modSides[k] = Side(mods[k].File, spans[i]);
                if (spans[i].Length < originalSpans[i].Length)
                    notApplied.Add($"{mods[k].Mod}: {mods[k].File}: segment {i} is shorter than the game's ({spans[i].Length} < {originalSpans[i].Length} bytes); a merge never shortens a segment, the game's bytes past {spans[i].Length} stay");
            }
            var merge = SegmentMerge.Run(originalSide.Data, modSides.Select(s => s?.Data).ToList(), layout);
            tally.Add(i, merge);
            lengths[i] = merge.Owners.Length;
            data.Add(w => w.WriteSegment(merge, originalSide, modSides));
        }

        var writer = new MergedTableWriter();
        Span<byte> word = stackalloc byte[4];
        if (table.Shape == TableShape.ItemTable)
        {
            var items = table.Items!;
            BinaryPrimitives.WriteInt32LittleEndian(word, lengths[items.CountSegment] / items.PerItem[items.CountSegment]);
            writer.WriteBytes(word);
        }
        for (int i = 0; i < count; i++)
        {
            if (table.Shape == TableShape.ItemTable)
            {
                data[i](writer);
                continue;
            }
            if (table.LittleEndian)
                BinaryPrimitives.WriteInt32LittleEndian(word, lengths[i]);
            else
                BinaryPrimitives.WriteInt32BigEndian(word, lengths[i]);
            writer.WriteBytes(word);
            data[i](writer);
            writer.WriteBytes(new byte[TableContainer.RoundUp(4 + lengths[i]) - 4 - lengths[i]]);
        }
        var built = writer.Build();
        return new MergedTable(built, tally.Report(table, built, notApplied));
    }

    // A mod's edits to a segment the merge does not take from it are not applied: say so, once per mod and segment.
    private static void ReportIgnoredEdits(MergeableTable table, int segment, SegmentSide original, IReadOnlyList<TableModFile> mods,
        TableContainer.SegmentSpan[]?[] modSpans, List<string> notApplied, string why)
    {
        for (int k = 0; k < mods.Count; k++)
        {
            if (modSpans[k] is not { } spans)
                continue;
            var data = TableContainer.ReadBytes(mods[k].File, spans[segment].DataOffset, spans[segment].Length);
            if (!data.AsSpan().SequenceEqual(original.Data))
                notApplied.Add($"{mods[k].Mod}: {mods[k].File}: its changes to segment {segment} of {table.Path} are not applied: {why}");
        }
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
        var merge = SegmentMerge.Run(originalSide.Data, modSides.Select(s => s?.Data).ToList(), table.Segments[0]!);
        var writer = new MergedTableWriter();
        writer.WriteSegment(merge, originalSide, modSides);
        var tally = new Tally(mods);
        tally.Add(0, merge);
        var built = writer.Build();
        return new MergedTable(built, tally.Report(table, built, notApplied));
    }

    private static SegmentSide Side(EntryInput file, TableContainer.SegmentSpan span) =>
        new(file, span.DataOffset, TableContainer.ReadBytes(file, span.DataOffset, span.Length));

    /// <summary>Adds up, over a table's segments, what each mod changed and kept, and the contested fields.</summary>
    private sealed class Tally(IReadOnlyList<TableModFile> mods)
    {
        private readonly int[] _fields = new int[mods.Count];
        private readonly int[] _won = new int[mods.Count];
        private readonly List<MergeConflict> _conflicts = [];
        private readonly Dictionary<int, SortedSet<int>> _segmentMods = []; // segment -> the mods that changed it

        public void Add(int segment, SegmentMerge merge)
        {
            for (int k = 0; k < mods.Count; k++)
            {
                if (merge.Changed[k] is not { } changed)
                    continue;
                _fields[k] += changed.Count;
                if (changed.Count > 0)
                    ModsOf(segment).Add(k);
                foreach (var (start, _) in changed)
                {
                    if (merge.Owners[start] == k)
                        _won[k]++;
                }
            }
            foreach (var (start, width, contenders) in merge.Contested.OrderBy(c => c.Start))
                AddConflict(segment, start, width, contenders);
        }

        /// <summary>A segment replaced whole by companion files: one field for each giver, the last one's kept.</summary>
        public void AddReplaced(int segment, List<int> givers, int length)
        {
            foreach (int k in givers)
            {
                _fields[k]++;
                ModsOf(segment).Add(k);
            }
            _won[givers[^1]]++;
            if (givers.Count > 1)
                AddConflict(segment, 0, length, givers);
        }

        private void AddConflict(int segment, long start, int width, List<int> contenders)
        {
            var names = contenders.Select(k => mods[k].Mod).ToList();
            _conflicts.Add(new MergeConflict(segment, start, width, names, names[^1]));
        }

        private SortedSet<int> ModsOf(int segment) => _segmentMods.TryGetValue(segment, out var set) ? set : _segmentMods[segment] = [];

        public EntryMergeReport Report(MergeableTable table, VirtualFiles.VirtualFile merged, List<string> notApplied) =>
            new(table.Path, mods.Select((m, k) => new MergeContribution(m.Mod, _fields[k], _won[k])).ToList(), _conflicts, notApplied)
            {
                Segments = TableSegments.Locate(table, merged, i => _segmentMods.TryGetValue(i, out var set) ? set.Select(k => mods[k].Mod).ToArray() : []),
            };
    }
}
