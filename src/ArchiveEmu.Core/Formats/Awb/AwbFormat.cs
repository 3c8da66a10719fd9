using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Awb;

/// <summary>CRI AWB (<c>AFS2</c>): a table of ids and n+1 positions of 2, 4 or 8 bytes, entries aligned, unaligned ends stored.</summary>
internal sealed class AwbFormat : ArchiveFormat<AwbIndex>
{
    internal const int MaxEntries = 1 << 24;

    public static AwbFormat Instance { get; } = new();

    public override string Name => "awb";
    public override string DisplayName => "AWB";
    public override EntryAddressing Addressing => EntryAddressing.ByIndex;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    public override IReadOnlyList<string> Extensions { get; } = [".awb"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < AwbHeader.Size || !head.StartsWith("AFS2"u8) || head[5] is not (2 or 4 or 8) || head[6] is not (2 or 4))
            return false;
        long count = BinaryPrimitives.ReadUInt32LittleEndian(head[8..]);
        return count <= MaxEntries && AwbHeader.Size + count * head[6] + (count + 1) * head[5] <= length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < AwbHeader.Size)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for an AWB header");
        var fixedPart = reader.ReadBytes(0, AwbHeader.Size, "AWB header");
        if (!fixedPart.AsSpan().StartsWith("AFS2"u8))
            throw reader.Corrupt(0, "not an AWB archive (no AFS2 magic)");
        var header = ReadHeader(reader, fixedPart);

        uint count = BinaryPrimitives.ReadUInt32LittleEndian(fixedPart.AsSpan(8));
        long tableEnd = header.TableEnd(count);
        if (count > MaxEntries || tableEnd > reader.Length)
            throw reader.Corrupt(8, $"entry count {count} does not fit in the {reader.Length}-byte file");

        var table = reader.ReadBytes(AwbHeader.Size, tableEnd - AwbHeader.Size, "id and position table");
        var ids = new uint[count];
        for (int i = 0; i < count; i++)
            ids[i] = (uint)AwbHeader.ReadUnsigned(table.AsSpan(i * header.IdWidth), header.IdWidth);
        var positions = ReadPositions(reader, header, table.AsSpan((int)(count * header.IdWidth)), count, tableEnd);

        var entries = new ArchiveEntry[count];
        for (int i = 0; i < count; i++)
        {
            long start = header.Align(positions[i]), end = positions[i + 1];
            // An empty entry may end before its aligned start; it is then size 0 at its end, inside the file.
            entries[i] = new ArchiveEntry(i, null, Math.Min(start, end), Math.Max(0, end - start));
        }
        return new AwbIndex(source, entries, header, ids, positions);
    }

    protected override EmulatedArchive BuildArchive(AwbIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        AwbBuilder.Build(original, patch, pool);

    // AWB entries have no names.
    protected override IReadOnlyList<EmulatedEntry> UnchangedEntries(AwbIndex original) =>
        original.Entries.Select(e => new EmulatedEntry(e.Index, null, e.Size, EntryState.Original, EmulatedEntry.OriginalOrigin)).ToArray();

    private static AwbHeader ReadHeader(ArchiveFileReader reader, byte[] bytes)
    {
        if (bytes[5] is not (2 or 4 or 8))
            throw reader.Corrupt(5, $"position width {bytes[5]} is not 2, 4 or 8");
        if (bytes[6] is not (2 or 4))
            throw reader.Corrupt(6, $"id width {bytes[6]} is not 2 or 4");
        return new AwbHeader(bytes[4], bytes[5], bytes[6], bytes[7],
            BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(0xC)), BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(0xE)));
    }

    /// <summary>Reads the n+1 positions; each must lie in the file, after the table, and not before the one before it.</summary>
    private static long[] ReadPositions(ArchiveFileReader reader, AwbHeader header, ReadOnlySpan<byte> table, uint count, long tableEnd)
    {
        long tableAt = AwbHeader.Size + (long)count * header.IdWidth;
        var positions = new long[count + 1];
        for (int i = 0; i <= count; i++)
        {
            long fieldAt = tableAt + (long)i * header.PositionWidth;
            ulong value = AwbHeader.ReadUnsigned(table[(i * header.PositionWidth)..], header.PositionWidth);
            if (value > (ulong)reader.Length)
                throw reader.Corrupt(fieldAt, $"position {i} ({value}) is past the end of the {reader.Length}-byte file");
            long position = (long)value;
            if (i == 0 && position < tableEnd)
                throw reader.Corrupt(fieldAt, $"position 0 ({position}) is inside the {tableEnd}-byte header");
            if (i > 0 && position < positions[i - 1])
                throw reader.Corrupt(fieldAt, $"position {i} ({position}) is before position {i - 1} ({positions[i - 1]}): positions must not decrease");
            positions[i] = position;
        }
        return positions;
    }
}
