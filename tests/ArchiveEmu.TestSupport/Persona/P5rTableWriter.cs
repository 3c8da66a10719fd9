using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// Writes and splits Persona 5 Royal TBL containers from the layout Persona Essentials reads
/// (<c>P5RTblSegmentFinder</c>): a run of segments, each a big-endian s32 length, the data, then zeros so the next
/// segment starts on a multiple of 16. NAME.TBL is 19 pairs of segments: a big-endian u16 offset table into a pool of
/// NUL-terminated strings. Kept apart from the product: the tests read tables back with <see cref="Segments"/>.
/// </summary>
public static class P5rTableWriter
{
    public const int SegmentAlignment = 16;

    /// <summary>The table's bytes: every segment with its length before it and padding after it.</summary>
    public static byte[] Write(IReadOnlyList<byte[]> segments)
    {
        var output = new MemoryStream();
        foreach (var segment in segments)
        {
            var length = new byte[4];
            BinaryPrimitives.WriteInt32BigEndian(length, segment.Length);
            output.Write(length);
            output.Write(segment);
            output.Write(new byte[Align(4 + segment.Length) - (4 + segment.Length)]);
        }
        return output.ToArray();
    }

    /// <summary>The segments' data, walking lengths to the end; a length past the end is an <see cref="InvalidDataException"/>.</summary>
    public static List<byte[]> Segments(byte[] table)
    {
        var segments = new List<byte[]>();
        for (int at = 0; at < table.Length;)
        {
            int length = BinaryPrimitives.ReadInt32BigEndian(table.AsSpan(at));
            if (length < 0 || at + 4 + length > table.Length)
                throw new InvalidDataException($"TBL segment {segments.Count} at {at}: length {length} runs past the table's {table.Length} bytes");
            segments.Add(table.AsSpan(at + 4, length).ToArray());
            at += Align(4 + length);
        }
        return segments;
    }

    /// <summary>NAME.TBL's segments for string lists: per list an offset table (BE u16 per string) then its string pool.</summary>
    public static byte[][] NameSegments(IReadOnlyList<IReadOnlyList<string>> lists)
    {
        var segments = new List<byte[]>();
        foreach (var list in lists)
        {
            var offsets = new byte[list.Count * 2];
            var pool = new MemoryStream();
            for (int i = 0; i < list.Count; i++)
            {
                BinaryPrimitives.WriteUInt16BigEndian(offsets.AsSpan(i * 2), checked((ushort)pool.Length));
                pool.Write(Encoding.ASCII.GetBytes(list[i]));
                pool.WriteByte(0);
            }
            segments.Add(offsets);
            segments.Add(pool.ToArray());
        }
        return [.. segments];
    }

    private static int Align(int value) => (value + SegmentAlignment - 1) / SegmentAlignment * SegmentAlignment;
}
