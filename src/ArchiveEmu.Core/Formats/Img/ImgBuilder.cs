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

    /// <summary>A record of the emulated directory: its name bytes and where its data comes from.</summary>
    private sealed record Planned(string Name, byte[] NameField, ImgRecord? Original, EntryChange? Change);

    public static EmulatedArchive Build(ImgIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * (original.Records.Count + patch.Changes.Count) + 4);
        if (patch.Changes.Count == 0)
        {
            original.AppendOriginal(builder, 0, original.Length);
            return new EmulatedArchive(original, builder.Build(),
                original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, "original")).ToArray());
        }

        var (planned, deleted) = Plan(original, ChangesByName(original, patch));
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
    private static (List<Planned>, List<EmulatedEntry>) Plan(ImgIndex original, Dictionary<string, EntryChange> changes)
    {
        var planned = new List<Planned>(original.Records.Count + changes.Count);
        var deleted = new List<EmulatedEntry>();
        var used = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < original.Records.Count; i++)
        {
            var record = original.Records[i];
            changes.TryGetValue(record.Name, out var change);
            if (change is not null)
                used.Add(record.Name);
            if (change is { IsDelete: true })
                deleted.Add(new EmulatedEntry(i, record.Name, 0, EntryState.Deleted, change.Origin));
            else
                planned.Add(new Planned(record.Name, record.NameField, record, change));
        }

        foreach (var change in changes.Values.Where(c => !used.Contains(c.Key.Name!)))
        {
            if (change.IsDelete)
                throw new ArchiveFormatException(original.Source.Name, 0, $"cannot delete '{change.Key.Name}' (from {change.Origin}): no such entry");
            planned.Add(new Planned(change.Key.Name!, NewNameField(original, change), null, change));
        }
        return (planned, deleted);
    }

    private static Dictionary<string, EntryChange> ChangesByName(ImgIndex original, ArchivePatch patch)
    {
        var changes = new Dictionary<string, EntryChange>(StringComparer.OrdinalIgnoreCase);
        foreach (var change in patch.Changes)
        {
            if (change.Key.IsIndex || string.IsNullOrEmpty(change.Key.Name))
                throw new ArchiveFormatException(original.Source.Name, 0, $"IMG entries are addressed by name; '{change.Key}' (from {change.Origin}) is not one");
            if (!changes.TryAdd(change.Key.Name, change))
                throw new ArchiveFormatException(original.Source.Name, 0, $"entry '{change.Key.Name}' is changed twice ({changes[change.Key.Name].Origin}, {change.Origin})");
            long sectors = ((change.Input?.Length ?? 0) + ImgFormat.SectorSize - 1) / ImgFormat.SectorSize;
            if (sectors > ushort.MaxValue)
                throw new ArchiveFormatException(original.Source.Name, 0,
                    $"entry '{change.Key.Name}': {change.Input} is {change.Input!.Length} bytes ({sectors} sectors); IMG v2 sizes stop at {ushort.MaxValue} sectors");
        }
        return changes;
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
