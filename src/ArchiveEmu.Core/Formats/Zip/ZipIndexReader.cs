using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;
using static ArchiveEmu.Core.Formats.Zip.ZipRecords;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>
/// Reads and validates a ZIP index: the end record (and zip64 end record), the central directory, and
/// each entry's local header and data descriptor. Every field is bounds-checked before it is used.
/// </summary>
internal static class ZipIndexReader
{
    /// <summary>Where the central directory is, as the end record (or the zip64 one) says.</summary>
    private readonly record struct DirectoryLocation(long EndRecordOffset, long CountFieldOffset, long EntryCount,
        long Offset, long Size, long Limit, byte[] Comment);

    public static ZipIndex Read(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        var location = FindCentralDirectory(reader);
        var directory = reader.ReadBytes(location.Offset, location.Size, "central directory");
        var entries = ParseCentralDirectory(reader, location, directory);
        var fileOrder = ReadLocalRecords(reader, entries, location.Offset);
        return new ZipIndex(source, entries, fileOrder, location.Offset, location.Comment);
    }

    private static DirectoryLocation FindCentralDirectory(ArchiveFileReader reader)
    {
        if (reader.Length < EndRecordSize)
            throw reader.Corrupt(0, $"a {reader.Length}-byte file is too short for a ZIP end-of-central-directory record");
        long tailStart = Math.Max(0, reader.Length - (EndRecordSize + MaxCommentLength));
        var tail = reader.ReadBytes(tailStart, reader.Length - tailStart, "end-of-central-directory search");
        int found = FindEndRecord(tail);
        if (found < 0)
            throw reader.Corrupt(tailStart, "no ZIP end-of-central-directory record (PK\\5\\6) in the last 64 KiB");

        long end = tailStart + found;
        var record = tail.AsSpan(found, EndRecordSize);
        ushort disk = U16(record, 4), directoryDisk = U16(record, 6), entriesOnDisk = U16(record, 8), entries = U16(record, 10);
        if ((disk != 0 && disk != ushort.MaxValue) || (directoryDisk != 0 && directoryDisk != ushort.MaxValue) || entriesOnDisk != entries)
            throw reader.Corrupt(end + 4, "split or spanned (multi-disk) ZIP archives are not supported");
        var comment = tail.AsSpan(found + EndRecordSize, U16(record, 20)).ToArray();
        var location = new DirectoryLocation(end, end + 10, entries, U32(record, 16), U32(record, 12), end, comment);

        long locatorAt = end - Zip64LocatorSize;
        if (locatorAt >= 0 && reader.ReadUInt32LE(locatorAt, "zip64 locator") == Zip64LocatorSignature)
            location = ReadZip64End(reader, locatorAt, location);

        if (!reader.Contains(location.Offset, location.Size) || location.Offset + location.Size > location.Limit)
            throw reader.Corrupt(location.CountFieldOffset + 6,
                $"central directory [{location.Offset}, {location.Offset + location.Size}) is outside the file before its end record at {location.Limit} ({reader.Length}-byte file)");
        if (location.EntryCount < 0 || location.EntryCount > location.Size / CentralRecordSize)
            throw reader.Corrupt(location.CountFieldOffset,
                $"entry count {location.EntryCount} does not fit in the {location.Size}-byte central directory");
        return location;
    }

    private static DirectoryLocation ReadZip64End(ArchiveFileReader reader, long locatorAt, DirectoryLocation location)
    {
        ulong recordAt = reader.ReadUInt64LE(locatorAt + 8, "zip64 end record offset");
        if (recordAt > (ulong)Math.Max(0, locatorAt - Zip64EndRecordSize))
            throw reader.Corrupt(locatorAt + 8, $"zip64 end record offset {recordAt} is outside the file before its locator at {locatorAt}");
        long at = (long)recordAt;
        var record = reader.ReadBytes(at, Zip64EndRecordSize, "zip64 end record");
        if (U32(record, 0) != Zip64EndRecordSignature)
            throw reader.Corrupt(at, "no zip64 end-of-central-directory record (PK\\6\\6) where the zip64 locator points");
        if (U32(record, 16) != 0 || U32(record, 20) != 0)
            throw reader.Corrupt(at + 16, "split or spanned (multi-disk) ZIP archives are not supported");
        return location with
        {
            CountFieldOffset = at + 32, EntryCount = ToLong(U64(record, 32)), Size = ToLong(U64(record, 40)),
            Offset = ToLong(U64(record, 48)), Limit = at,
        };
    }

    private static List<ZipEntry> ParseCentralDirectory(ArchiveFileReader reader, DirectoryLocation location, byte[] directory)
    {
        var entries = new List<ZipEntry>((int)location.EntryCount);
        int pos = 0;
        for (int i = 0; i < location.EntryCount; i++)
        {
            long at = location.Offset + pos;
            var rest = directory.AsSpan(pos);
            if (rest.Length < CentralRecordSize || U32(rest, 0) != CentralRecordSignature)
                throw reader.Corrupt(at, $"central directory record {i} of {location.EntryCount} is missing (no PK\\1\\2 signature)");
            int nameLength = U16(rest, 28), extraLength = U16(rest, 30), commentLength = U16(rest, 32);
            int recordLength = CentralRecordSize + nameLength + extraLength + commentLength;
            if (recordLength > rest.Length)
                throw reader.Corrupt(at, $"central directory record {i} ({recordLength} bytes) runs past the end of the central directory");

            ushort flags = U16(rest, 8);
            var name = DecodeName(rest.Slice(CentralRecordSize, nameLength), flags);
            long compressed = U32(rest, 20), uncompressed = U32(rest, 24), localOffset = U32(rest, 42);
            if (uncompressed == Zip64Limit || compressed == Zip64Limit || localOffset == Zip64Limit)
            {
                var extra = rest.Slice(CentralRecordSize + nameLength, extraLength);
                if (!TryReadZip64(extra, ref uncompressed, ref compressed, ref localOffset))
                    throw reader.Corrupt(at, $"'{name}': sizes or offset are 0xFFFFFFFF but its zip64 extra field is missing or too short");
            }
            entries.Add(new ZipEntry(name, directory.AsMemory(pos, recordLength), at, flags, U32(rest, 16), compressed, uncompressed, localOffset));
            pos += recordLength;
        }
        return entries;
    }

    /// <summary>Reads the zip64 extra block: 64-bit values, in this order, for just the fields that are 0xFFFFFFFF.</summary>
    private static bool TryReadZip64(ReadOnlySpan<byte> extra, ref long uncompressed, ref long compressed, ref long localOffset)
    {
        if (!TryFindExtraBlock(extra, Zip64ExtraId, out var block))
            return false;
        if (uncompressed == Zip64Limit && !TakeU64(ref block, out uncompressed))
            return false;
        if (compressed == Zip64Limit && !TakeU64(ref block, out compressed))
            return false;
        return localOffset != Zip64Limit || TakeU64(ref block, out localOffset);
    }

    private static bool TakeU64(ref ReadOnlySpan<byte> block, out long value)
    {
        value = 0;
        if (block.Length < 8)
            return false;
        value = ToLong(BinaryPrimitives.ReadUInt64LittleEndian(block));
        block = block[8..];
        return true;
    }

    /// <summary>Checks every local header and finds where each entry's bytes end; returns the entries in file order.</summary>
    private static int[] ReadLocalRecords(ArchiveFileReader reader, List<ZipEntry> entries, long directoryOffset)
    {
        var order = Enumerable.Range(0, entries.Count).ToArray();
        Array.Sort(order, (a, b) => entries[a].LocalHeaderOffset.CompareTo(entries[b].LocalHeaderOffset));
        var header = new byte[LocalHeaderSize];
        for (int k = 0; k < order.Length; k++)
        {
            var e = entries[order[k]];
            long next = k + 1 < order.Length ? entries[order[k + 1]].LocalHeaderOffset : directoryOffset;
            if (!reader.Contains(e.LocalHeaderOffset, LocalHeaderSize) || e.LocalHeaderOffset + LocalHeaderSize > directoryOffset)
                throw reader.Corrupt(e.CentralRecordOffset + 42,
                    $"'{e.Name}': local header offset {e.LocalHeaderOffset} is outside the entry area before the central directory at {directoryOffset}");
            reader.ReadExactly(e.LocalHeaderOffset, header, "local header");
            if (U32(header, 0) != LocalHeaderSignature)
                throw reader.Corrupt(e.LocalHeaderOffset, $"'{e.Name}': no local header signature (PK\\3\\4) at {e.LocalHeaderOffset}");

            int headerLength = LocalHeaderSize + U16(header, 26) + U16(header, 28);
            long dataOffset = e.LocalHeaderOffset + headerLength;
            if (e.CompressedSize < 0 || dataOffset > directoryOffset || e.CompressedSize > directoryOffset - dataOffset)
                throw reader.Corrupt(e.LocalHeaderOffset,
                    $"'{e.Name}': data [{dataOffset}, {dataOffset + e.CompressedSize}) runs past the central directory at {directoryOffset}");
            long dataEnd = dataOffset + e.CompressedSize;
            long end = (e.Flags & DataDescriptorFlag) == 0 ? dataEnd : dataEnd + DataDescriptorLength(reader, e, header, dataEnd, next);
            if (end > next)
                throw reader.Corrupt(e.LocalHeaderOffset, $"'{e.Name}' [{e.LocalHeaderOffset}, {end}) overlaps the next record at {next}");
            entries[order[k]] = e with { LocalHeaderLength = headerLength, RecordEnd = end };
        }
        return order;
    }

    /// <summary>
    /// The data descriptor's length: optional PK\7\8, crc, then 4- or 8-byte sizes (8 when the local header has
    /// a zip64 block, or when that length is exactly what lies before the next record). An unrecognised
    /// descriptor keeps every byte up to the next record, as the original has them.
    /// </summary>
    private static long DataDescriptorLength(ArchiveFileReader reader, ZipEntry e, byte[] header, long dataEnd, long next)
    {
        long room = next - dataEnd;
        if (room < 12)
            return Math.Max(room, 0);
        uint first = reader.ReadUInt32LE(dataEnd, "data descriptor");
        int signature = first == DataDescriptorSignature && reader.ReadUInt32LE(dataEnd + 4, "data descriptor") == e.Crc32 ? 4
            : first == e.Crc32 ? 0 : -1;
        if (signature < 0)
            return room;
        long narrow = signature + 12, wide = signature + 20;
        if (room == narrow || room == wide)
            return room;
        var localExtra = reader.ReadBytes(e.LocalHeaderOffset + LocalHeaderSize + U16(header, 26), U16(header, 28), "local extra field");
        return TryFindExtraBlock(localExtra, Zip64ExtraId, out _) ? wide : narrow;
    }

    private static long ToLong(ulong value) => value > long.MaxValue ? -1 : (long)value;
    private static ushort U16(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt16LittleEndian(b[at..]);
    private static uint U32(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt32LittleEndian(b[at..]);
    private static ulong U64(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt64LittleEndian(b[at..]);
}
