using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// Lays out an emulated IMG v2 archive: the directory rebuilt in memory (grown by whole sectors when
/// records are added), then every entry's data in directory order on sector boundaries. Unchanged
/// entries are slices of the original with their sector padding, so runs of them merge into one
/// slice; injected files are zero-padded to a whole sector; deleted records are dropped; added ones
/// go at the end (<see cref="ImgPlan"/>, the plan IMG v1's writers follow too).
/// </summary>
internal static class ImgBuilder
{
    public static EmulatedArchive Build(ImgIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * (original.Records.Count + patch.Changes.Count) + 4);
        var (planned, deleted) = ImgPlan.Of(original, original.Records, patch, change => RefuseOversized(original, change));
        long directoryEnd = ImgFormat.HeaderSize + (long)ImgFormat.RecordSize * planned.Count;
        var directory = new byte[RoundUpToSector(directoryEnd)];
        builder.AppendBytes(directory); // filled in below, before Build: the builder keeps a reference
        "VER2"u8.CopyTo(directory);
        BinaryPrimitives.WriteUInt32LittleEndian(directory.AsSpan(4), (uint)planned.Count);
        var entries = new List<EmulatedEntry>(planned.Count + deleted.Count);

        for (int i = 0; i < planned.Count; i++)
        {
            var p = planned[i];
            long start = builder.Position;
            ushort streaming = 0;
            if (p.Change is null)
            {
                var record = p.Original!;
                original.AppendOriginal(builder, record.Sector * (long)ImgFormat.SectorSize, record.Sectors * (long)ImgFormat.SectorSize);
                streaming = record.Streaming;
            }
            else
            {
                p.Change.Input!.AppendTo(builder);
                builder.AppendPadding(ImgFormat.SectorSize);
            }
            long sectors = (builder.Position - start) / ImgFormat.SectorSize;
            if (start / ImgFormat.SectorSize > uint.MaxValue)
                throw new ArchiveFormatException(original.Source.Name, 0, $"entry '{p.Name}' would start at sector {start / ImgFormat.SectorSize}; IMG offsets stop at {uint.MaxValue}");
            WriteRecord(directory.AsSpan(ImgFormat.HeaderSize + ImgFormat.RecordSize * i, ImgFormat.RecordSize),
                (uint)(start / ImgFormat.SectorSize), (ushort)sectors, streaming, p.NameField);

            var state = p.Change is null ? EntryState.Original : p.Original is null ? EntryState.Added : EntryState.Replaced;
            entries.Add(new EmulatedEntry(i, p.Name, sectors * ImgFormat.SectorSize, state, EmulatedEntry.OriginOf(p.Change), p.Change?.Input));
        }
        entries.AddRange(deleted);
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    private static void RefuseOversized(ImgIndex original, EntryChange change)
    {
        long sectors = change.Input is null ? 0 : ImgPlan.SectorsOf(change);
        if (sectors > ushort.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"entry '{change.Key.Name}': {change.Input} is {change.Input!.Length} bytes ({sectors} sectors); IMG v2 sizes stop at {ushort.MaxValue} sectors");
    }

    private static void WriteRecord(Span<byte> record, uint sector, ushort sectors, ushort streaming, byte[] nameField)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(record, sector);
        BinaryPrimitives.WriteUInt16LittleEndian(record[4..], sectors);
        BinaryPrimitives.WriteUInt16LittleEndian(record[6..], streaming);
        nameField.CopyTo(record[8..]);
    }

    private static long RoundUpToSector(long value) => (value + ImgFormat.SectorSize - 1) / ImgFormat.SectorSize * ImgFormat.SectorSize;
}
