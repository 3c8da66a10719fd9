using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// Lays out an emulated IMG v2 archive: the directory rebuilt in memory (grown by whole sectors when
/// records are added), then every entry's data in directory order on sector boundaries. Unchanged
/// entries are slices of the original with their sector padding, so runs of them merge into one
/// slice; injected files are zero-padded to a whole sector; deleted records are dropped; added ones
/// go at the end. Names match case-insensitively and a replaced entry keeps the original's spelling.
/// </summary>
internal static class ImgBuilder
{
    private const int MaxNameLength = ImgFormat.NameFieldSize - 1;
    private static readonly NameRule Names = new("IMG", StringComparer.OrdinalIgnoreCase);

    /// <summary>A record of the emulated directory: its name bytes and where its data comes from.</summary>
    private sealed record Planned(string Name, byte[] NameField, ImgRecord? Original, EntryChange? Change);

    public static EmulatedArchive Build(ImgIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * (original.Records.Count + patch.Changes.Count) + 4);
        var (planned, deleted) = Plan(original, patch);
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
            entries.Add(new EmulatedEntry(i, p.Name, sectors * ImgFormat.SectorSize, state, p.Change?.Origin ?? "original", p.Change?.Input));
        }
        entries.AddRange(deleted);
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    /// <summary>The emulated directory (original records in order, minus deletes, then additions) and the deleted entries.</summary>
    private static (List<Planned>, List<EmulatedEntry>) Plan(ImgIndex original, ArchivePatch patch)
    {
        var changes = NamedPatch.ByName(original, patch, Names, change => RefuseOversized(original, change));
        var names = original.Records.Select(r => r.Name).ToArray();
        var (changeOf, added) = NamedPatch.Match(original, names, changes, Names);
        var planned = new List<Planned>(original.Records.Count + added.Count);
        var deleted = new List<EmulatedEntry>();
        for (int i = 0; i < original.Records.Count; i++)
        {
            var record = original.Records[i];
            if (changeOf[i] is { IsDelete: true } change)
                deleted.Add(new EmulatedEntry(i, record.Name, 0, EntryState.Deleted, change.Origin));
            else
                planned.Add(new Planned(record.Name, record.NameField, record, changeOf[i]));
        }
        foreach (var change in added)
            planned.Add(new Planned(change.Key.Name!, NewNameField(original, change), null, change));
        return (planned, deleted);
    }

    private static void RefuseOversized(ImgIndex original, EntryChange change)
    {
        long sectors = ((change.Input?.Length ?? 0) + ImgFormat.SectorSize - 1) / ImgFormat.SectorSize;
        if (sectors > ushort.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"entry '{change.Key.Name}': {change.Input} is {change.Input!.Length} bytes ({sectors} sectors); IMG v2 sizes stop at {ushort.MaxValue} sectors");
    }

    /// <summary>The 24-byte name field of an added entry: 1 to 23 printable ASCII characters, NUL-padded.</summary>
    private static byte[] NewNameField(ImgIndex original, EntryChange change)
    {
        string name = change.Key.Name!;
        var field = new byte[ImgFormat.NameFieldSize];
        bool fits = name.Length <= MaxNameLength && Ascii.IsValid(name) && !name.Contains('/') && !name.Contains('\\');
        if (fits)
            Encoding.ASCII.GetBytes(name, field);
        if (!fits || ImgFormat.TryParseName(field) != name)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"cannot add '{name}' (from {change.Origin}): IMG names are 1 to {MaxNameLength} printable ASCII characters with no folders");
        return field;
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
