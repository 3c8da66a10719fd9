using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// A CRILAYLA compressor for tests, from the public description of the format (kept apart from the product's decoder):
/// "CRILAYLA", u32 LE size of the content after its first 0x100 bytes, u32 LE size of the compressed bits, the
/// compressed bits, then the first 0x100 bytes as is. The bits are read from the last compressed byte backwards, most
/// significant bit first, and rebuild the content from its end: 0 + 8 bits is a byte; 1 + 13 bits (distance − 3) +
/// a length (− 3) in 2, 3, 5, 8, 8, … bits (a field of all ones continues) copies bytes from that far above.
/// </summary>
public static class CrilaylaTestEncoder
{
    /// <summary>The bytes at the start of the content the format stores uncompressed after the stream.</summary>
    public const int PrefixSize = 0x100;

    private const int MinDistance = 3;
    private const int MaxDistance = (1 << 13) - 1 + MinDistance;
    private const int MinLength = 3;
    private const int MaxLength = 0x10000; // longer runs are split; keeps the search bounded
    private const int ChainDepth = 96;
    private const int HashBits = 15;

    /// <summary>
    /// Compresses <paramref name="content"/>; the format cannot hold fewer than <see cref="PrefixSize"/> bytes.
    /// The result is a valid stream even where it is larger than the content (CPK writers then store the content raw).
    /// </summary>
    public static byte[] Encode(ReadOnlySpan<byte> content)
    {
        if (content.Length < PrefixSize)
            throw new ArgumentException($"CRILAYLA cannot hold {content.Length} bytes: the first 0x{PrefixSize:x} are stored as is, so content must be at least that long", nameof(content));
        if (content.Length - PrefixSize > int.MaxValue / 2)
            throw new ArgumentException("content too large for a test stream", nameof(content));

        // The decoder produces the content after the prefix last byte first: compress that reversed sequence forwards.
        var reversed = content[PrefixSize..].ToArray();
        Array.Reverse(reversed);
        var bits = new BitWriter();
        var head = new int[1 << HashBits];
        Array.Fill(head, -1);
        var previous = new int[reversed.Length];
        int position = 0;
        while (position < reversed.Length)
        {
            var (distance, length) = LongestMatch(reversed, position, head, previous);
            if (length >= MinLength)
            {
                bits.Write(1, 1);
                bits.Write((uint)(distance - MinDistance), 13);
                WriteLength(bits, length - MinLength);
            }
            else
            {
                length = 1;
                bits.Write(0, 1);
                bits.Write(reversed[position], 8);
            }
            for (int end = position + length; position < end; position++)
                Insert(reversed, position, head, previous);
        }

        var stream = bits.ToArray();
        Array.Reverse(stream); // the first bits the decoder reads sit in the last byte
        var output = new byte[0x10 + stream.Length + PrefixSize];
        "CRILAYLA"u8.CopyTo(output);
        BinaryPrimitives.WriteUInt32LittleEndian(output.AsSpan(8), (uint)reversed.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(output.AsSpan(12), (uint)stream.Length);
        stream.CopyTo(output, 0x10);
        content[..PrefixSize].CopyTo(output.AsSpan(0x10 + stream.Length));
        return output;
    }

    // Lengths beyond each field's maximum spill into the next field; after the 8-bit one, more 8-bit fields.
    private static void WriteLength(BitWriter bits, int value)
    {
        foreach (int width in (ReadOnlySpan<int>)[2, 3, 5, 8])
        {
            int max = (1 << width) - 1;
            bits.Write((uint)Math.Min(value, max), width);
            if (value < max)
                return;
            value -= max;
        }
        while (true)
        {
            bits.Write((uint)Math.Min(value, 255), 8);
            if (value < 255)
                return;
            value -= 255;
        }
    }

    private static (int Distance, int Length) LongestMatch(byte[] data, int position, int[] head, int[] previous)
    {
        int bestLength = 0, bestDistance = 0;
        if (position + MinLength > data.Length)
            return (0, 0);
        int limit = Math.Min(MaxLength, data.Length - position);
        int depth = ChainDepth;
        for (int candidate = head[Hash(data, position)]; candidate >= 0 && depth-- > 0; candidate = previous[candidate])
        {
            int distance = position - candidate;
            if (distance > MaxDistance)
                break;
            if (distance < MinDistance || data[candidate + bestLength] != data[position + bestLength])
                continue;
            int length = 0;
            while (length < limit && data[candidate + length] == data[position + length])
                length++;
            if (length > bestLength)
            {
                (bestLength, bestDistance) = (length, distance);
                if (length == limit)
                    break;
            }
        }
        return (bestDistance, bestLength);
    }

    private static void Insert(byte[] data, int position, int[] head, int[] previous)
    {
        if (position + MinLength > data.Length)
            return;
        int hash = Hash(data, position);
        previous[position] = head[hash];
        head[hash] = position;
    }

    private static int Hash(byte[] data, int position) =>
        (int)(((uint)(data[position] << 16 | data[position + 1] << 8 | data[position + 2]) * 2654435761u) >> (32 - HashBits));

    // Bits most significant first into bytes; the last byte is padded with zero bits.
    private sealed class BitWriter
    {
        private readonly List<byte> _bytes = [];
        private uint _pending;
        private int _pendingBits;

        public void Write(uint value, int width)
        {
            for (int bit = width - 1; bit >= 0; bit--)
            {
                _pending = _pending << 1 | ((value >> bit) & 1);
                if (++_pendingBits == 8)
                {
                    _bytes.Add((byte)_pending);
                    (_pending, _pendingBits) = (0, 0);
                }
            }
        }

        public byte[] ToArray()
        {
            var bytes = new List<byte>(_bytes);
            if (_pendingBits > 0)
                bytes.Add((byte)(_pending << (8 - _pendingBits)));
            return bytes.ToArray();
        }
    }
}
