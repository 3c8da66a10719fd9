using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>ZIP record layouts (APPNOTE 6.3): signatures, fixed sizes, flags, extra-field blocks, names and DOS times.</summary>
internal static class ZipRecords
{
    public const uint LocalHeaderSignature = 0x04034b50;      // PK\3\4
    public const uint CentralRecordSignature = 0x02014b50;    // PK\1\2
    public const uint EndRecordSignature = 0x06054b50;        // PK\5\6
    public const uint Zip64EndRecordSignature = 0x06064b50;   // PK\6\6
    public const uint Zip64LocatorSignature = 0x07064b50;     // PK\6\7
    public const uint DataDescriptorSignature = 0x08074b50;   // PK\7\8

    public const int LocalHeaderSize = 30;
    public const int CentralRecordSize = 46;
    public const int EndRecordSize = 22;
    public const int Zip64EndRecordSize = 56;
    public const int Zip64LocatorSize = 20;
    public const int MaxCommentLength = ushort.MaxValue;

    public const ushort Zip64ExtraId = 0x0001;
    public const ushort AesExtraId = 0x9901;

    public const ushort DataDescriptorFlag = 1 << 3;
    public const ushort Utf8NameFlag = 1 << 11;

    /// <summary>Sizes and offsets at or above this do not fit a 32-bit field and go to the zip64 extra block.</summary>
    public const long Zip64Limit = uint.MaxValue;

    private static readonly Encoding StrictUtf8 = new UTF8Encoding(false, throwOnInvalidBytes: true);
    private static readonly Encoding Cp437 = CodePagesEncodingProvider.Instance.GetEncoding(437)!;

    /// <summary>
    /// Finds the end-of-central-directory record in the last bytes of a file: the one whose comment ends
    /// exactly at the end, else the last one whose comment fits (trailing bytes after it). -1 if none.
    /// </summary>
    public static int FindEndRecord(ReadOnlySpan<byte> tail)
    {
        int fallback = -1;
        for (int at = tail.Length - EndRecordSize; at >= 0; at--)
        {
            if (tail[at] != (byte)'P' || BinaryPrimitives.ReadUInt32LittleEndian(tail[at..]) != EndRecordSignature)
                continue;
            int end = at + EndRecordSize + BinaryPrimitives.ReadUInt16LittleEndian(tail[(at + 20)..]);
            if (end == tail.Length)
                return at;
            if (end < tail.Length && fallback < 0)
                fallback = at;
        }
        return fallback;
    }

    /// <summary>The data of the first extra block with <paramref name="id"/>; false if there is none.</summary>
    public static bool TryFindExtraBlock(ReadOnlySpan<byte> extra, ushort id, out ReadOnlySpan<byte> data)
    {
        while (extra.Length >= 4)
        {
            ushort blockId = BinaryPrimitives.ReadUInt16LittleEndian(extra);
            int size = BinaryPrimitives.ReadUInt16LittleEndian(extra[2..]);
            if (size > extra.Length - 4)
                break;
            if (blockId == id)
            {
                data = extra.Slice(4, size);
                return true;
            }
            extra = extra[(4 + size)..];
        }
        data = default;
        return false;
    }

    /// <summary>The extra field without the blocks in <paramref name="ids"/>; trailing bytes that are no whole block are dropped.</summary>
    public static byte[] ExtraWithout(ReadOnlySpan<byte> extra, params ReadOnlySpan<ushort> ids)
    {
        var kept = new List<byte>(extra.Length);
        while (extra.Length >= 4)
        {
            ushort blockId = BinaryPrimitives.ReadUInt16LittleEndian(extra);
            int size = BinaryPrimitives.ReadUInt16LittleEndian(extra[2..]);
            if (size > extra.Length - 4)
                break;
            if (!ids.Contains(blockId))
                kept.AddRange(extra[..(4 + size)]);
            extra = extra[(4 + size)..];
        }
        return kept.ToArray();
    }

    /// <summary>An entry name: UTF-8 when flagged or when the bytes are valid UTF-8 (what Linux zip writes), else code page 437.</summary>
    public static string DecodeName(ReadOnlySpan<byte> bytes, ushort flags)
    {
        if ((flags & Utf8NameFlag) != 0 || !bytes.ContainsAnyInRange((byte)0x80, (byte)0xFF))
            return Encoding.UTF8.GetString(bytes);
        try
        {
            return StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException)
        {
            return Cp437.GetString(bytes);
        }
    }

    /// <summary>MS-DOS time and date (local time, two-second resolution, 1980–2107).</summary>
    public static (ushort Time, ushort Date) DosTime(DateTime local)
    {
        if (local.Year < 1980)
            local = new DateTime(1980, 1, 1);
        else if (local.Year > 2107)
            local = new DateTime(2107, 12, 31, 23, 59, 58);
        return ((ushort)((local.Hour << 11) | (local.Minute << 5) | (local.Second / 2)),
                (ushort)(((local.Year - 1980) << 9) | (local.Month << 5) | local.Day));
    }
}
