using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// A CRILAYLA compressor written for the tests from the public description of the format (docs/FORMATS.md, "CRILAYLA"),
/// sharing nothing with the product's decoder: it finds real matches (hash chains over the content read backwards) so the
/// streams it makes have back-references of every length class, overlapping ones included.
/// </summary>
public static class CrilaylaReferenceEncoder
{
    private const int PrefixSize = 0x100, MinMatch = 3, MaxDistance = 8191 + 3, ChainLimit = 256;

    /// <summary>
    /// The CRILAYLA stream of <paramref name="content"/> (at least 0x100 bytes): the header, the compressed part, the first
    /// 0x100 bytes raw. <paramref name="maxMatch"/> caps a back-reference's length (a smaller cap gives more, shorter ones).
    /// </summary>
    public static byte[] Encode(byte[] content, int maxMatch = 4096)
    {
        if (content.Length < PrefixSize)
            throw new ArgumentException("CRILAYLA keeps the first 0x100 bytes raw: the content must have at least that many", nameof(content));
        // The decoder fills the content from its end backwards, copying from higher offsets: forwards over the reversed
        // body that is ordinary LZ77, each copy taking bytes `distance` back.
        var body = content.AsSpan(PrefixSize).ToArray();
        Array.Reverse(body);
        var bits = new BitWriter();
        var head = new Dictionary<int, int>();
        var previous = new int[body.Length];
        int i = 0;
        while (i < body.Length)
        {
            var (length, distance) = LongestMatch(body, i, head, previous, maxMatch);
            if (length >= MinMatch)
            {
                bits.Write(1, 1);
                bits.Write(distance - 3, 13);
                WriteLength(bits, length - MinMatch);
                for (int k = 0; k < length; k++)
                    Insert(body, i + k, head, previous);
                i += length;
            }
            else
            {
                bits.Write(0, 1);
                bits.Write(body[i], 8);
                Insert(body, i, head, previous);
                i++;
            }
        }
        // Read from the last byte towards the first: the first byte written goes last.
        var compressed = bits.ToArray();
        Array.Reverse(compressed);
        var stream = new byte[0x10 + compressed.Length + PrefixSize];
        "CRILAYLA"u8.CopyTo(stream);
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(8), (uint)body.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(12), (uint)compressed.Length);
        compressed.CopyTo(stream, 0x10);
        content.AsSpan(0, PrefixSize).CopyTo(stream.AsSpan(0x10 + compressed.Length));
        return stream;
    }

    /// <summary>Length minus 3 in fields of 2, 3 and 5 bits, then 8-bit fields while a field is all ones.</summary>
    private static void WriteLength(BitWriter bits, int rest)
    {
        foreach (int width in new[] { 2, 3, 5 })
        {
            int full = (1 << width) - 1;
            bits.Write(Math.Min(rest, full), width);
            if (rest < full)
                return;
            rest -= full;
        }
        while (true)
        {
            bits.Write(Math.Min(rest, 255), 8);
            if (rest < 255)
                return;
            rest -= 255;
        }
    }

    private static (int Length, int Distance) LongestMatch(byte[] data, int at, Dictionary<int, int> head, int[] previous, int maxMatch)
    {
        if (at + MinMatch > data.Length)
            return (0, 0);
        int best = 0, bestDistance = 0, limit = Math.Min(maxMatch, data.Length - at), tries = 0;
        for (int candidate = head.GetValueOrDefault(Key(data, at), -1); candidate >= 0 && tries < ChainLimit; candidate = previous[candidate], tries++)
        {
            int distance = at - candidate;
            if (distance > MaxDistance)
                break;
            if (distance < 3)
                continue; // the shortest distance the format can say is 3
            int length = 0;
            while (length < limit && data[candidate + length] == data[at + length])
                length++; // may run past `at`: the decoder copies byte by byte, so an overlapping copy repeats
            if (length > best)
                (best, bestDistance) = (length, distance);
        }
        return (best, bestDistance);
    }

    private static void Insert(byte[] data, int at, Dictionary<int, int> head, int[] previous)
    {
        if (at + MinMatch > data.Length)
            return;
        int key = Key(data, at);
        previous[at] = head.GetValueOrDefault(key, -1);
        head[key] = at;
    }

    private static int Key(byte[] data, int at) => data[at] << 16 | data[at + 1] << 8 | data[at + 2];

    /// <summary>Bits most significant first into bytes, in the order the decoder takes them.</summary>
    private sealed class BitWriter
    {
        private readonly List<byte> _bytes = [];
        private int _current, _used;

        public void Write(int value, int count)
        {
            for (int bit = count - 1; bit >= 0; bit--)
            {
                _current = _current << 1 | ((value >> bit) & 1);
                if (++_used == 8)
                {
                    _bytes.Add((byte)_current);
                    (_current, _used) = (0, 0);
                }
            }
        }

        public byte[] ToArray() => _used == 0 ? [.. _bytes] : [.. _bytes, (byte)(_current << (8 - _used))];
    }
}
