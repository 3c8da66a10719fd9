using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Where a table's segments lie. A TBL container: each segment an s32 length (big-endian in P5R, little-endian in P4G
/// and P3P), its data, then zeros so the next starts on a multiple of 16 (Essentials' *TblSegmentFinder). An itemtbl.bin:
/// an s32 count, then segments back to back (Essentials' ItemTbl). Essentials reads exactly the segments its table type has; so do we.
/// </summary>
internal static class TableContainer
{
    /// <summary>TBL segments start on multiples of this (TblSegmentAlignment).</summary>
    public const int Alignment = 16;

    /// <summary>Where segment i's data starts in the file, and its length.</summary>
    internal readonly record struct SegmentSpan(long DataOffset, int Length)
    {
        public long End => DataOffset + Length;
    }

    /// <summary>
    /// Reads where <paramref name="table"/>'s segments lie in <paramref name="file"/>. Returns null with <paramref name="error"/>
    /// set when a length is negative or a segment runs past the file's end.
    /// </summary>
    public static SegmentSpan[]? TryRead(MergeableTable table, EntryInput file, out string? error) =>
        table.Shape == TableShape.ItemTable
            ? TryReadItems(table.Items!, file, out error)
            : TryReadTbl(file, table.SegmentCount, table.LittleEndian, out error);

    private static SegmentSpan[]? TryReadTbl(EntryInput file, int count, bool littleEndian, out string? error)
    {
        var spans = new SegmentSpan[count];
        long at = 0;
        for (int i = 0; i < count; i++)
        {
            if (!TryReadInt(file, at, littleEndian, out int length))
            {
                error = $"segment {i} of {count} starts at {at}, past the end of the {file.Length}-byte file";
                return null;
            }
            if (length < 0 || at + 4 + length > file.Length)
            {
                error = $"segment {i} at {at} claims {length} bytes; the file has {file.Length - at - 4} after its length";
                return null;
            }
            spans[i] = new SegmentSpan(at + 4, length);
            at = RoundUp(spans[i].End);
        }
        error = null;
        return spans;
    }

    private static SegmentSpan[]? TryReadItems(ItemTableLayout layout, EntryInput file, out string? error)
    {
        if (!TryReadInt(file, 0, littleEndian: true, out int count) || count < 0)
        {
            error = $"no item count at its start ({file.Length} bytes)";
            return null;
        }
        var spans = new SegmentSpan[layout.Fixed.Length];
        long at = 4;
        for (int i = 0; i < spans.Length; i++)
        {
            long length = layout.Fixed[i] + (long)count * layout.PerItem[i];
            if (at + length > file.Length)
            {
                error = $"{count} items make segment {i} {length} bytes at {at}, past the end of the {file.Length}-byte file";
                return null;
            }
            spans[i] = new SegmentSpan(at, (int)length);
            at += length;
        }
        error = null;
        return spans;
    }

    /// <summary>Where the container's last segment (with its padding, for a TBL) ends: bytes past it are not the table's.</summary>
    public static long End(MergeableTable table, SegmentSpan[] spans) =>
        table.Shape == TableShape.ItemTable ? spans[^1].End : RoundUp(spans[^1].End);

    private static bool TryReadInt(EntryInput file, long at, bool littleEndian, out int value)
    {
        Span<byte> bytes = stackalloc byte[4];
        value = 0;
        if (at > file.Length - 4 || file.Read(at, bytes) != 4)
            return false;
        value = littleEndian ? BinaryPrimitives.ReadInt32LittleEndian(bytes) : BinaryPrimitives.ReadInt32BigEndian(bytes);
        return true;
    }

    /// <summary>The next multiple of <see cref="Alignment"/> at or after <paramref name="offset"/>.</summary>
    public static long RoundUp(long offset) => (offset + Alignment - 1) / Alignment * Alignment;

    /// <summary>Reads <paramref name="length"/> bytes at <paramref name="offset"/> of <paramref name="file"/> into a new array.</summary>
    public static byte[] ReadBytes(EntryInput file, long offset, int length)
    {
        var bytes = new byte[length];
        int done = 0;
        while (done < length)
        {
            int n = file.Read(offset + done, bytes.AsSpan(done));
            if (n == 0)
                throw new IOException($"{file}: {length} bytes at {offset} expected, the file ends after {done}");
            done += n;
        }
        return bytes;
    }
}
