using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Afs;

/// <summary>CRI AFS (<c>AFS\0</c>): little-endian u32 offsets, 0x800-aligned entries, an optional name table.</summary>
internal sealed class AfsFormat : ArchiveFormat<AfsIndex>
{
    internal const int Alignment = 0x800;
    internal const int NameRecordSize = 48;
    private const int MaxEntries = 1 << 24;

    public static AfsFormat Instance { get; } = new();

    public override string Name => "afs";
    public override string DisplayName => "AFS";
    public override EntryAddressing Addressing => EntryAddressing.ByIndex;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    public override IReadOnlyList<string> Extensions { get; } = [".afs"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < 8 || !head.StartsWith("AFS\0"u8))
            return false;
        long count = BinaryPrimitives.ReadUInt32LittleEndian(head[4..]);
        return count <= MaxEntries && 8 + 8 * count <= length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < 8 || !reader.ReadBytes(0, 4, "AFS magic").AsSpan().SequenceEqual("AFS\0"u8))
            throw reader.Corrupt(0, "not an AFS archive (no AFS\\0 magic)");

        uint count = reader.ReadUInt32LE(4, "entry count");
        if (count > MaxEntries || 8 + 8L * count + 8 > reader.Length)
            throw reader.Corrupt(4, $"entry count {count} does not fit in the {reader.Length}-byte file");

        var table = reader.ReadBytes(8, 8L * count + 8, "entry table");
        long tableEnd = 8 + 8L * count;
        long firstData = long.MaxValue;
        for (int i = 0; i < count; i++)
        {
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i));
            uint size = BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i + 4));
            if (offset == 0 && size == 0)
                continue;
            if (offset < tableEnd + 8 || !reader.Contains(offset, size))
                throw reader.Corrupt(8 + 8L * i, $"entry {i} [{offset}, {(long)offset + size}) is outside the data area of the {reader.Length}-byte file");
            firstData = Math.Min(firstData, offset);
        }
        if (firstData == long.MaxValue)
            firstData = RoundUp(tableEnd + 8);
        var (placement, records) = ReadNameTable(reader, table.AsSpan((int)(8L * count)), count, tableEnd, firstData);

        // Entries are made once, names included: an archive of 65,536 entries should not allocate its table twice.
        var entries = new ArchiveEntry[count];
        for (int i = 0; i < count; i++)
        {
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i));
            uint size = BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i + 4));
            entries[i] = new ArchiveEntry(i, records is null ? null : AfsNames.Read(records, i), offset, size);
        }
        CheckNoOverlaps(reader, entries);
        return new AfsIndex(source, entries, firstData, placement, records);
    }

    protected override EmulatedArchive BuildArchive(AfsIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        AfsBuilder.Build(original, patch, pool);

    private static (AfsNameTablePlacement, byte[]?) ReadNameTable(ArchiveFileReader reader, ReadOnlySpan<byte> afterTable,
        uint count, long tableEnd, long firstData)
    {
        uint offset = BinaryPrimitives.ReadUInt32LittleEndian(afterTable);
        uint size = BinaryPrimitives.ReadUInt32LittleEndian(afterTable[4..]);
        long pointerAt = tableEnd;
        var placement = AfsNameTablePlacement.AfterEntryTable;
        if (offset == 0 && size == 0 && firstData - 8 > tableEnd && reader.Contains(firstData - 8, 8))
        {
            pointerAt = firstData - 8;
            offset = reader.ReadUInt32LE(pointerAt, "name table pointer");
            size = reader.ReadUInt32LE(pointerAt + 4, "name table size");
            placement = AfsNameTablePlacement.BeforeFirstData;
        }
        if (offset == 0 && size == 0)
            return (AfsNameTablePlacement.None, null);

        long needed = (long)NameRecordSize * count;
        if (size < needed || !reader.Contains(offset, needed))
            throw reader.Corrupt(pointerAt, $"name table [{offset}, {(long)offset + size}) does not hold {count} records inside the {reader.Length}-byte file");
        return (placement, reader.ReadBytes(offset, needed, "name table"));
    }

    private static void CheckNoOverlaps(ArchiveFileReader reader, ArchiveEntry[] entries)
    {
        // Most files store entries in index order: check them where they are, and sort a copy only when they are not.
        if (TryCheckInIndexOrder(reader, entries))
            return;
        var used = entries.Where(e => e.Size > 0).ToArray();
        Array.Sort(used, static (a, b) => a.Offset.CompareTo(b.Offset));
        for (int i = 1; i < used.Length; i++)
            ThrowIfOverlapping(reader, used[i - 1], used[i]);
    }

    // False when an entry starts before the one stored before it (the caller then sorts).
    private static bool TryCheckInIndexOrder(ArchiveFileReader reader, ArchiveEntry[] entries)
    {
        ArchiveEntry? previous = null;
        foreach (var entry in entries)
        {
            if (entry.Size == 0)
                continue;
            if (previous is not null)
            {
                if (entry.Offset < previous.Offset)
                    return false;
                ThrowIfOverlapping(reader, previous, entry);
            }
            previous = entry;
        }
        return true;
    }

    private static void ThrowIfOverlapping(ArchiveFileReader reader, ArchiveEntry first, ArchiveEntry second)
    {
        if (first.Offset + first.Size > second.Offset)
            throw reader.Corrupt(8 + 8L * second.Index, $"entry {second.Index} overlaps entry {first.Index}");
    }

    internal static long RoundUp(long value) => (value + Alignment - 1) / Alignment * Alignment;
}
