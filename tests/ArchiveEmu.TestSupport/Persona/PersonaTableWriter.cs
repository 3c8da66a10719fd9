using System.Text;

namespace ArchiveEmu.TestSupport.Persona;

/// <summary>Writes Persona tables for tests, from TABLES.md's description: TBL containers and P5R NAME.TBLs.</summary>
public static class PersonaTableWriter
{
    /// <summary>A TBL container: per segment a big-endian s32 length, the data, zeros to the next multiple of 16.</summary>
    public static byte[] Tbl(params byte[][] segments) => Tbl(false, segments);

    /// <summary>A TBL container whose lengths are little-endian (P4G, P3P) or big-endian (P5R).</summary>
    public static byte[] Tbl(bool littleEndian, params byte[][] segments)
    {
        var output = new MemoryStream();
        foreach (var data in segments)
        {
            byte[] length = [(byte)(data.Length >> 24), (byte)(data.Length >> 16), (byte)(data.Length >> 8), (byte)data.Length];
            if (littleEndian)
                Array.Reverse(length);
            output.Write(length);
            output.Write(data);
            while (output.Length % 16 != 0)
                output.WriteByte(0);
        }
        return output.ToArray();
    }

    /// <summary>A NAME.TBL: per list, a segment of big-endian u16 offsets and a segment of the NUL-terminated strings.</summary>
    public static byte[] Names(List<string>[] pairs)
    {
        var segments = new List<byte[]>();
        foreach (var strings in pairs)
        {
            var offsets = new List<byte>();
            var pool = new List<byte>();
            foreach (var s in strings)
            {
                offsets.Add((byte)(pool.Count >> 8));
                offsets.Add((byte)pool.Count);
                pool.AddRange(Encoding.UTF8.GetBytes(s));
                pool.Add(0);
            }
            segments.Add(offsets.ToArray());
            segments.Add(pool.ToArray());
        }
        return Tbl(segments.ToArray());
    }

    /// <summary>P4G's UNIT.TBL segments (enemy stats of 60 bytes, then two u16 arrays), for tests.</summary>
    public static readonly int[][] P4GUnit =
    [
        [2, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, .. Enumerable.Repeat(2, 23)],
        [2], [2],
    ];

    /// <summary>
    /// The record field widths of P5R tables, for tests, transcribed from TABLES.md's layout table independently of
    /// the product's catalogue (each inner array is one segment's record, field widths in order).
    /// </summary>
    public static class P5RLayouts
    {
        private static int[] Repeat(int width, int count) => Enumerable.Repeat(width, count).ToArray();
        private static int[] Join(params int[][] parts) => parts.SelectMany(p => p).ToArray();

        public static readonly int[][] Unit =
        [
            Join([2], Repeat(1, 4), [2], Repeat(1, 14), Repeat(2, 12), Repeat(1, 18), [2, 2]),
            [2], [2], [1], [2], [1],
        ];

        public static readonly int[][] Persona =
        [
            [1],
            Join(Repeat(1, 12), Enumerable.Range(0, 14).SelectMany(_ => new[] { 2, 1, 1 }).ToArray(), [2]),
            [4],
            Join([2, 1, 1], Enumerable.Range(0, 32).SelectMany(_ => new[] { 1, 1, 2 }).ToArray(), Repeat(1, 490)),
        ];

        public static readonly int[][] Item =
        [
            Join([4], Repeat(2, 5), Repeat(1, 6), Repeat(2, 10), [1, 1], Repeat(2, 11)),
            Join([4], Repeat(2, 8), Repeat(1, 6), Repeat(2, 10), [1, 1]),
            Join([4], Repeat(2, 10), [1, 1], Repeat(2, 11)),
            Join([4], Repeat(2, 4)),
            Join([4], Repeat(2, 8), [1, 1], Repeat(2, 11)),
            Join([4], Repeat(2, 8), Repeat(1, 6), Repeat(2, 9), [1, 1], [2]),
            Join([4], Repeat(2, 14)),
            Join([4], Repeat(2, 10)),
            Join([4], Repeat(2, 10), Repeat(1, 6), Repeat(2, 7), [1, 1], Repeat(2, 43)),
            [1],
        ];
    }
}
