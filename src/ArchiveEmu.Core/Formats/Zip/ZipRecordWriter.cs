using System.Buffers;
using System.Buffers.Binary;
using static ArchiveEmu.Core.Formats.Zip.ZipRecords;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>The header fields of one entry that the builder writes into its local header and central record.</summary>
internal readonly record struct ZipEntryFields(ushort VersionNeeded, ushort Flags, ushort Method, ushort Time, ushort Date,
    uint Crc32, long CompressedSize, long UncompressedSize)
{
    /// <summary>The fields of an original central record, with the sizes the reader resolved (zip64 included).</summary>
    public static ZipEntryFields Of(ZipEntry entry)
    {
        var r = entry.CentralRecord.Span;
        return new(U16(r, 6), U16(r, 8), U16(r, 10), U16(r, 12), U16(r, 14), entry.Crc32, entry.CompressedSize, entry.UncompressedSize);
    }

    private static ushort U16(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt16LittleEndian(b[at..]);
}

/// <summary>Writes ZIP records: local headers, central records (zip64 blocks where a value needs 64 bits) and the end records.</summary>
internal static class ZipRecordWriter
{
    private const ushort Zip64Version = 45;

    /// <summary>The fixed part of a central record for an added file: made by Unix (version 2.0), a regular file with mode 0644.</summary>
    public static readonly byte[] NewFileTemplate = MakeNewFileTemplate();

    public static byte[] LocalHeader(ReadOnlySpan<byte> name, ZipEntryFields f)
    {
        bool zip64 = f.UncompressedSize >= Zip64Limit || f.CompressedSize >= Zip64Limit;
        var header = new byte[LocalHeaderSize + name.Length + (zip64 ? 20 : 0)];
        var s = header.AsSpan();
        W32(s, 0, LocalHeaderSignature);
        W16(s, 4, zip64 ? Math.Max(f.VersionNeeded, Zip64Version) : f.VersionNeeded);
        W16(s, 6, f.Flags);
        W16(s, 8, f.Method);
        W16(s, 10, f.Time);
        W16(s, 12, f.Date);
        W32(s, 14, f.Crc32);
        W32(s, 18, zip64 ? uint.MaxValue : (uint)f.CompressedSize);
        W32(s, 22, zip64 ? uint.MaxValue : (uint)f.UncompressedSize);
        W16(s, 26, (ushort)name.Length);
        W16(s, 28, (ushort)(zip64 ? 20 : 0));
        name.CopyTo(s[LocalHeaderSize..]);
        if (zip64)
        {
            var block = s[(LocalHeaderSize + name.Length)..];
            W16(block, 0, Zip64ExtraId);
            W16(block, 2, 16);
            W64(block, 4, f.UncompressedSize);
            W64(block, 12, f.CompressedSize);
        }
        return header;
    }

    /// <summary>
    /// Appends a central record: <paramref name="template"/>'s fixed part (version made by, attributes) with
    /// <paramref name="f"/> and the offset, then name, <paramref name="extra"/> (holding no zip64 block) plus a
    /// new zip64 block for the values that need one, and comment. False if the extra field would pass 64 KiB.
    /// </summary>
    public static bool TryAppendCentralRecord(ArrayBufferWriter<byte> output, ReadOnlySpan<byte> template, ZipEntryFields f,
        long localHeaderOffset, ReadOnlySpan<byte> name, ReadOnlySpan<byte> extra, ReadOnlySpan<byte> comment)
    {
        bool wideU = f.UncompressedSize >= Zip64Limit, wideC = f.CompressedSize >= Zip64Limit, wideO = localHeaderOffset >= Zip64Limit;
        int zip64Values = (wideU ? 1 : 0) + (wideC ? 1 : 0) + (wideO ? 1 : 0);
        int zip64Block = zip64Values == 0 ? 0 : 4 + 8 * zip64Values;
        if (extra.Length + zip64Block > ushort.MaxValue)
            return false;

        int length = CentralRecordSize + name.Length + extra.Length + zip64Block + comment.Length;
        var s = output.GetSpan(length)[..length];
        template[..CentralRecordSize].CopyTo(s);
        W16(s, 6, zip64Values > 0 ? Math.Max(f.VersionNeeded, Zip64Version) : f.VersionNeeded);
        W16(s, 8, f.Flags);
        W16(s, 10, f.Method);
        W16(s, 12, f.Time);
        W16(s, 14, f.Date);
        W32(s, 16, f.Crc32);
        W32(s, 20, wideC ? uint.MaxValue : (uint)f.CompressedSize);
        W32(s, 24, wideU ? uint.MaxValue : (uint)f.UncompressedSize);
        W16(s, 28, (ushort)name.Length);
        W16(s, 30, (ushort)(extra.Length + zip64Block));
        W16(s, 32, (ushort)comment.Length);
        W16(s, 34, 0); // disk number: always the one disk
        W32(s, 42, wideO ? uint.MaxValue : (uint)localHeaderOffset);

        int at = CentralRecordSize;
        name.CopyTo(s[at..]);
        at += name.Length;
        extra.CopyTo(s[at..]);
        at += extra.Length;
        if (zip64Block > 0)
        {
            W16(s, at, Zip64ExtraId);
            W16(s, at + 2, (ushort)(zip64Block - 4));
            at += 4;
            foreach (var (wide, value) in new[] { (wideU, f.UncompressedSize), (wideC, f.CompressedSize), (wideO, localHeaderOffset) })
            {
                if (!wide)
                    continue;
                W64(s, at, value);
                at += 8;
            }
        }
        comment.CopyTo(s[at..]);
        output.Advance(length);
        return true;
    }

    /// <summary>Appends the end record, preceded by the zip64 end record and locator when a count, size or offset needs them.</summary>
    public static void AppendEnd(ArrayBufferWriter<byte> output, long directoryOffset, long directorySize, long count, ReadOnlySpan<byte> comment)
    {
        if (count >= ushort.MaxValue || directoryOffset >= Zip64Limit || directorySize >= Zip64Limit)
        {
            long zip64EndAt = directoryOffset + directorySize;
            var z = output.GetSpan(Zip64EndRecordSize + Zip64LocatorSize)[..(Zip64EndRecordSize + Zip64LocatorSize)];
            z.Clear();
            W32(z, 0, Zip64EndRecordSignature);
            W64(z, 4, Zip64EndRecordSize - 12); // the record's size, not counting the signature and this field
            W16(z, 12, Zip64Version);
            W16(z, 14, Zip64Version);
            W64(z, 24, count);
            W64(z, 32, count);
            W64(z, 40, directorySize);
            W64(z, 48, directoryOffset);
            var locator = z[Zip64EndRecordSize..];
            W32(locator, 0, Zip64LocatorSignature);
            W64(locator, 8, zip64EndAt);
            W32(locator, 16, 1);
            output.Advance(z.Length);
        }

        var e = output.GetSpan(EndRecordSize + comment.Length)[..(EndRecordSize + comment.Length)];
        e.Clear();
        W32(e, 0, EndRecordSignature);
        W16(e, 8, (ushort)Math.Min(count, ushort.MaxValue));
        W16(e, 10, (ushort)Math.Min(count, ushort.MaxValue));
        W32(e, 12, (uint)Math.Min(directorySize, Zip64Limit));
        W32(e, 16, (uint)Math.Min(directoryOffset, Zip64Limit));
        W16(e, 20, (ushort)comment.Length);
        comment.CopyTo(e[EndRecordSize..]);
        output.Advance(e.Length);
    }

    private static byte[] MakeNewFileTemplate()
    {
        var template = new byte[CentralRecordSize];
        W32(template, 0, CentralRecordSignature);
        W16(template, 4, 0x0314);
        W32(template, 38, 0x81A4u << 16); // Unix mode S_IFREG | 0644 in the high half of the external attributes
        return template;
    }

    private static void W16(Span<byte> s, int at, ushort value) => BinaryPrimitives.WriteUInt16LittleEndian(s[at..], value);
    private static void W32(Span<byte> s, int at, uint value) => BinaryPrimitives.WriteUInt32LittleEndian(s[at..], value);
    private static void W64(Span<byte> s, int at, long value) => BinaryPrimitives.WriteUInt64LittleEndian(s[at..], (ulong)value);
}
