using System.Buffers.Binary;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Deterministic mutations of a valid archive (one seed, one mutant): the damage real files and hostile
/// ones show — truncation, bit flips, header fields set to huge, negative or just-past-the-end values,
/// a region copied over another (overlapping entries, tables pointing into data), junk appended.
/// </summary>
internal static class Mutator
{
    public static readonly string[] Kinds = ["truncate", "bitflip", "hostile-field", "copy-region", "zero-region", "append", "stacked"];

    public static (string Kind, byte[] Bytes) Mutate(byte[] original, int seed)
    {
        var random = new Random(seed);
        string kind = Kinds[random.Next(Kinds.Length)];
        var bytes = kind == "stacked" ? Apply(Apply(Apply(original, random, "bitflip"), random, "hostile-field"), random, "copy-region")
            : Apply(original, random, kind);
        return (kind, bytes);
    }

    private static byte[] Apply(byte[] original, Random random, string kind)
    {
        var bytes = (byte[])original.Clone();
        if (bytes.Length == 0)
            return [0];
        switch (kind)
        {
            case "truncate":
                // Favour cuts inside the header and tables, where parsers look first.
                int cut = random.Next(2) == 0 ? random.Next(Math.Min(bytes.Length, 4096)) : random.Next(bytes.Length);
                return bytes[..cut];
            case "bitflip":
                for (int i = random.Next(1, 9); i > 0; i--)
                {
                    int at = NearHead(random, bytes.Length);
                    bytes[at] ^= (byte)(1 << random.Next(8));
                }
                return bytes;
            case "hostile-field":
                WriteHostile(bytes, random);
                return bytes;
            case "copy-region":
            {
                int length = random.Next(1, Math.Min(bytes.Length, 512) + 1);
                int from = random.Next(bytes.Length - length + 1), to = NearHead(random, bytes.Length - length + 1);
                Array.Copy(bytes, from, bytes, to, length);
                return bytes;
            }
            case "zero-region":
            {
                int length = random.Next(1, Math.Min(bytes.Length, 256) + 1);
                Array.Clear(bytes, NearHead(random, bytes.Length - length + 1), length);
                return bytes;
            }
            case "append":
            {
                var junk = new byte[random.Next(1, 5000)];
                random.NextBytes(junk);
                return [.. bytes, .. junk];
            }
            default:
                throw new ArgumentOutOfRangeException(nameof(kind), kind, "unknown mutation");
        }
    }

    // A 32- or 64-bit field, either byte order, set to a value a careless parser trusts: sizes that overflow,
    // counts that would allocate gigabytes, offsets just past the end.
    private static void WriteHostile(byte[] bytes, Random random)
    {
        long[] values = [0, 1, -1, int.MaxValue, int.MinValue, uint.MaxValue, bytes.Length, bytes.Length + 1, bytes.Length - 1,
            0x10000000, long.MaxValue, 1L << 32, 0x7FFF];
        long value = values[random.Next(values.Length)];
        bool wide = random.Next(4) == 0 && bytes.Length >= 8;
        int width = wide ? 8 : 4;
        if (bytes.Length < width)
            return;
        int at = NearHead(random, bytes.Length - width + 1) & ~(random.Next(2) == 0 ? 3 : 0); // often aligned, like real fields
        var field = bytes.AsSpan(at, width);
        bool bigEndian = random.Next(2) == 0;
        if (wide && bigEndian) BinaryPrimitives.WriteInt64BigEndian(field, value);
        else if (wide) BinaryPrimitives.WriteInt64LittleEndian(field, value);
        else if (bigEndian) BinaryPrimitives.WriteUInt32BigEndian(field, unchecked((uint)value));
        else BinaryPrimitives.WriteUInt32LittleEndian(field, unchecked((uint)value));
    }

    // Three times in four within the first 4 KiB: headers and tables live there.
    private static int NearHead(Random random, int length) =>
        random.Next(4) != 0 ? random.Next(Math.Min(length, 4096)) : random.Next(length);
}
