using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// Lays out an emulated IMG v1 pair from one plan, so the two files always agree: the data file (<c>x.img</c>) holds every
/// entry's data in directory order from sector 0, unchanged entries as slices of the original with their sector padding
/// (runs of them merge into one slice), injected files zero-padded to a whole sector; the directory (<c>x.dir</c>) is rebuilt
/// in memory with those sectors. Deleted records are dropped, added ones go at the end; names match case-insensitively and a
/// replaced entry keeps the original's spelling (<see cref="ImgPlan"/>). With no change both are the originals, byte for byte (the data
/// file through <see cref="ArchiveFormat{TIndex}"/>).
/// </summary>
internal static class ImgV1Builder
{
    /// <summary>A record of the emulated directory: its name bytes, where its data comes from, and its size in sectors.</summary>
    private sealed record Planned(string Name, byte[] NameField, ImgV1Record? Original, EntryChange? Change, long Sectors);

    public static EmulatedArchive BuildData(ImgV1Index original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * (original.Records.Count + patch.Changes.Count) + 2);
        var (planned, entries) = Plan(original, patch);
        foreach (var p in planned)
        {
            if (p.Change is null)
                original.AppendOriginal(builder, p.Original!.Sector * (long)ImgFormat.SectorSize, p.Sectors * ImgFormat.SectorSize);
            else
            {
                p.Change.Input!.AppendTo(builder);
                builder.AppendPadding(ImgFormat.SectorSize);
            }
        }
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    public static EmulatedArchive BuildDirectory(ImgV1Index original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 1);
        if (patch.Changes.Count == 0)
        {
            original.DirectoryView().AppendOriginal(builder, 0, original.Directory.Length);
            return new EmulatedArchive(original.DirectoryView(), builder.Build(), Unchanged(original));
        }
        var (planned, entries) = Plan(original, patch);
        var directory = new byte[(long)ImgFormat.RecordSize * planned.Count];
        long sector = 0;
        for (int i = 0; i < planned.Count; i++)
        {
            var record = directory.AsSpan(ImgFormat.RecordSize * i, ImgFormat.RecordSize);
            BinaryPrimitives.WriteUInt32LittleEndian(record, (uint)sector);
            BinaryPrimitives.WriteUInt32LittleEndian(record[4..], (uint)planned[i].Sectors);
            planned[i].NameField.CopyTo(record[8..]);
            sector += planned[i].Sectors;
        }
        builder.AppendBytes(directory);
        return new EmulatedArchive(original.DirectoryView(), builder.Build(), entries);
    }

    private static EmulatedEntry[] Unchanged(ImgV1Index original) =>
        original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, EmulatedEntry.OriginalOrigin)).ToArray();

    /// <summary>
    /// The emulated directory (original records in order, minus deletes, then additions) with each record's sectors, and the
    /// entry list (deleted entries last). A layout whose sectors pass what a u32 holds is refused here, for both files alike.
    /// </summary>
    private static (List<Planned>, List<EmulatedEntry>) Plan(ImgV1Index original, ArchivePatch patch)
    {
        var (shared, deleted) = ImgPlan.Of(original, original.Records, patch);
        var planned = shared.Select(p => new Planned(p.Name, p.NameField, p.Original, p.Change, p.Change is { } c ? ImgPlan.SectorsOf(c) : p.Original!.Sectors)).ToList();

        var entries = new List<EmulatedEntry>(planned.Count + deleted.Count);
        long sector = 0;
        for (int i = 0; i < planned.Count; i++)
        {
            var p = planned[i];
            if (sector > uint.MaxValue || p.Sectors > uint.MaxValue)
                throw new ArchiveFormatException(original.Source.Name, 0,
                    $"entry '{p.Name}' would start at sector {sector} and span {p.Sectors}; IMG v1 offsets and sizes stop at {uint.MaxValue} sectors");
            sector += p.Sectors;
            var state = p.Change is null ? EntryState.Original : p.Original is null ? EntryState.Added : EntryState.Replaced;
            entries.Add(new EmulatedEntry(i, p.Name, p.Sectors * ImgFormat.SectorSize, state, EmulatedEntry.OriginOf(p.Change), p.Change?.Input));
        }
        entries.AddRange(deleted);
        return (planned, entries);
    }

}
