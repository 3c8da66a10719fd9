using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Tables;

/// <summary>
/// A TBL container's segments: each a big-endian s32 length, its data, then zeros so the next starts on a multiple of 16
/// (Essentials' P5RTblSegmentFinder). Essentials reads exactly the count its table type has; so do we.
/// </summary>
internal static class TableContainer
{
    /// <summary>Segments start on multiples of this (P5RTblSegmentFinder.TblSegmentAlignment).</summary>
    public const int Alignment = 16;

    /// <summary>Where segment i's data starts in the file, and its length.</summary>
    internal readonly record struct SegmentSpan(long DataOffset, int Length)
    {
        /// <summary>Where the next segment's length starts.</summary>
        public long NextOffset => RoundUp(DataOffset + Length);
    }

    /// <summary>
    /// Reads the first <paramref name="count"/> segment headers of <paramref name="file"/>. Returns null with
    /// <paramref name="error"/> set when a length is negative or a segment runs past the file's end.
    /// </summary>
    public static SegmentSpan[]? TryRead(EntryInput file, int count, out string? error)
    {
        var spans = new SegmentSpan[count];
        Span<byte> header = stackalloc byte[4];
        long at = 0;
        for (int i = 0; i < count; i++)
        {
            if (at > file.Length - 4 || file.Read(at, header) != 4)
            {
                error = $"segment {i} of {count} starts at {at}, past the end of the {file.Length}-byte file";
                return null;
            }
            int length = BinaryPrimitives.ReadInt32BigEndian(header);
            if (length < 0 || at + 4 + length > file.Length)
            {
                error = $"segment {i} at {at} claims {length} bytes; the file has {file.Length - at - 4} after its length";
                return null;
            }
            spans[i] = new SegmentSpan(at + 4, length);
            at = spans[i].NextOffset;
        }
        error = null;
        return spans;
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
