using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Awb;

/// <summary>
/// Lays out an emulated AWB archive: the id and position table rebuilt in memory, then every entry on
/// an alignment boundary with its unaligned end stored (as CRI's writer does). Runs of unchanged
/// entries are one slice of the original, padding included; injected entries are slices of their
/// inputs. A delete leaves an empty entry in place; an index past the end grows the archive with
/// empty entries between. Positions that outgrow their width are widened (2 → 4 → 8).
/// </summary>
internal static class AwbBuilder
{
    public static EmulatedArchive Build(AwbIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * Math.Max(original.Entries.Count, patch.Changes.Count) + 8);
        var changes = IndexChanges(original, patch);
        int oldCount = original.Entries.Count;
        int count = Math.Max(oldCount, changes.Count == 0 ? 0 : changes.Keys.Max() + 1);
        var sizes = new long[count];
        for (int i = 0; i < count; i++)
            sizes[i] = changes.TryGetValue(i, out var c) ? c.Input?.Length ?? 0 : i < oldCount ? original.Entries[i].Size : 0;
        var ids = IdsFor(original, count);
        var header = FittingHeader(original, ids, sizes);

        var positions = new long[count + 1];
        var table = new byte[header.TableEnd(count)];
        builder.AppendBytes(table); // filled in below, before Build: the builder keeps a reference
        positions[0] = builder.Position;
        var entries = new EmulatedEntry[count];
        long originalEnd = -1; // where the last bytes taken from the original end, while a run of unchanged entries goes on

        for (int i = 0; i < count; i++)
        {
            changes.TryGetValue(i, out var change);
            var old = i < oldCount ? original.Entries[i] : null;
            bool unchanged = change is null && old is not null;
            long gap = header.Align(builder.Position) - builder.Position;
            // Within a run, the original's own padding keeps the run one contiguous slice; it is padding
            // (not data) because it ends before this entry's aligned start in the original.
            if (unchanged && originalEnd >= 0 && originalEnd + gap <= Math.Min(original.Header.Align(original.Positions[i]), original.Length))
            {
                original.AppendOriginal(builder, originalEnd, gap);
                originalEnd += gap;
            }
            else
            {
                builder.AppendZeros(gap);
                originalEnd = -1;
            }

            if (!unchanged)
            {
                change?.Input?.AppendTo(builder);
                originalEnd = -1;
            }
            else if (old!.Size > 0)
            {
                original.AppendOriginal(builder, old.Offset, old.Size);
                originalEnd = old.Offset + old.Size;
            } // an empty unchanged entry neither starts nor breaks a run
            positions[i + 1] = builder.Position;
            var (state, origin) = IndexedPatch.StateOf(old, change, changes, i);
            entries[i] = new EmulatedEntry(i, null, sizes[i], state, origin, change?.Input);
        }

        if (positions[count] > header.MaxPosition)
            throw new InvalidOperationException($"AWB layout of {positions[count]} bytes does not fit {header.PositionWidth}-byte positions");
        header.WriteTable(ids, positions).CopyTo(table, 0);
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    /// <summary>
    /// The original's header, with positions widened (2 → 4 → 8) until the archive's end fits, and ids
    /// widened to 4 bytes if added ids outgrow 2.
    /// </summary>
    private static AwbHeader FittingHeader(AwbIndex original, uint[] ids, long[] sizes)
    {
        var header = original.Header;
        if (header.IdWidth == 2 && ids.Length > 0 && ids.Max() > ushort.MaxValue)
            header = header with { IdWidth = 4 };
        while (true)
        {
            long end = header.TableEnd(sizes.Length);
            foreach (long size in sizes)
                end = header.Align(end) + size;
            if (end <= header.MaxPosition)
                return header;
            header = header with { PositionWidth = header.PositionWidth * 2 };
        }
    }

    /// <summary>The original's ids, then ids counting on from the largest one for added entries.</summary>
    private static uint[] IdsFor(AwbIndex original, int count)
    {
        var ids = new uint[count];
        int oldCount = original.Ids.Count;
        long next = oldCount == 0 ? 0 : original.Ids.Max() + 1L;
        for (int i = 0; i < count; i++)
        {
            if (i < oldCount)
                ids[i] = original.Ids[i];
            else if (next > uint.MaxValue)
                throw new ArchiveFormatException(original.Source.Name, AwbHeader.Size, $"entry {i} would need id {next}; AWB ids stop at {uint.MaxValue}");
            else
                ids[i] = (uint)next++;
        }
        return ids;
    }

    private static Dictionary<int, EntryChange> IndexChanges(AwbIndex original, ArchivePatch patch) =>
        IndexedPatch.ByIndex(original, patch, "AWB", AwbFormat.MaxEntries); // refuses a delete past the end, as for AFS
}
