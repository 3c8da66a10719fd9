using System.Text;

namespace ArchiveEmu.Core.Formats.Tar;

/// <summary>Fields of a 512-byte tar header: parsing (octal or base-256), checksums, and writing new ones.</summary>
internal static class TarHeader
{
    public const int BlockSize = 512;
    public const int SizeField = 124, SizeLength = 12;
    public const int ChecksumField = 148, TypeField = 156, MagicField = 257;
    // 11 octal digits (0o77777777777): 8 GiB − 1. C# has no octal literals: 077777777777 would be decimal, about 72 GiB.
    public const long MaxOctalSize = (1L << 33) - 1;

    /// <summary>Parses a numeric field: octal digits (space/NUL padded) or GNU base-256 (high bit set). Null if malformed.</summary>
    public static long? ParseNumber(ReadOnlySpan<byte> field)
    {
        if (field.Length > 0 && (field[0] & 0x80) != 0)
        {
            if ((field[0] & 0x40) != 0)
                return null; // negative
            ulong big = (ulong)(field[0] & 0x3F);
            foreach (byte b in field[1..])
            {
                if (big > ulong.MaxValue >> 8)
                    return null;
                big = (big << 8) | b;
            }
            return big > long.MaxValue ? null : (long)big;
        }
        long value = 0;
        int i = 0;
        while (i < field.Length && field[i] == ' ')
            i++;
        int digits = 0;
        for (; i < field.Length && field[i] is >= (byte)'0' and <= (byte)'7'; i++, digits++)
        {
            if (value > long.MaxValue >> 3)
                return null;
            value = (value << 3) | (uint)(field[i] - '0');
        }
        for (; i < field.Length; i++)
        {
            if (field[i] is not ((byte)' ' or 0))
                return null;
        }
        return digits == 0 && field.IndexOfAnyExcept((byte)0, (byte)' ') >= 0 ? null : value;
    }

    /// <summary>True if the stored checksum matches the header (unsigned sum, chksum field read as spaces; signed sums accepted too).</summary>
    public static bool ChecksumMatches(ReadOnlySpan<byte> header)
    {
        var stored = ParseNumber(header.Slice(ChecksumField, 8));
        if (stored is null)
            return false;
        long unsigned = 0, signed = 0;
        for (int i = 0; i < BlockSize; i++)
        {
            byte b = i is >= ChecksumField and < ChecksumField + 8 ? (byte)' ' : header[i];
            unsigned += b;
            signed += (sbyte)b;
        }
        return stored == unsigned || stored == signed;
    }

    public static void WriteChecksum(Span<byte> header)
    {
        header.Slice(ChecksumField, 8).Fill((byte)' ');
        long sum = 0;
        foreach (byte b in header)
            sum += b;
        WriteOctal(header.Slice(ChecksumField, 7), sum); // six digits, NUL, then the space already there
    }

    /// <summary>Writes <paramref name="value"/> as zero-padded octal filling all but the last byte, which is NUL.</summary>
    public static void WriteOctal(Span<byte> field, long value)
    {
        var text = Convert.ToString(value, 8).PadLeft(field.Length - 1, '0');
        if (text.Length > field.Length - 1)
            throw new ArgumentOutOfRangeException(nameof(value), $"{value} needs {text.Length} octal digits; the field holds {field.Length - 1}");
        Encoding.ASCII.GetBytes(text).CopyTo(field);
        field[^1] = 0;
    }

    public static void WriteSize(Span<byte> header, long size) =>
        WriteOctal(header.Slice(SizeField, SizeLength), Math.Min(size, MaxOctalSize));

    /// <summary>A NUL-terminated text field.</summary>
    public static string Text(ReadOnlySpan<byte> field)
    {
        int end = field.IndexOf((byte)0);
        return Encoding.UTF8.GetString(end < 0 ? field : field[..end]);
    }

    public static bool IsUstar(ReadOnlySpan<byte> header) => header.Slice(MagicField, 5).SequenceEqual("ustar"u8);
}
