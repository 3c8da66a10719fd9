using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>Writes DDS files (DXT1/3/5 or 32-bit A8R8G8B8 with mips) from Microsoft's DDS_HEADER description, for tests.</summary>
public static class DdsTestWriter
{
    public const int HeaderSize = 128; // "DDS " + the 124-byte DDS_HEADER

    /// <summary>A DDS of <paramref name="mipCount"/> levels whose pixel bytes come from <paramref name="seed"/>.</summary>
    public static byte[] Write(TextureFormat format, int width, int height, int mipCount = 1, int seed = 1) =>
        Write(format, width, height, TextureLevels.Pixels(format, width, height, mipCount, seed));

    /// <summary>A DDS holding exactly <paramref name="levels"/> (their sizes must match the format and dimensions).</summary>
    public static byte[] Write(TextureFormat format, int width, int height, IReadOnlyList<byte[]> levels)
    {
        for (int i = 0; i < levels.Count; i++)
            if (levels[i].Length != TextureLevels.Size(format, width, height, i))
                throw new ArgumentException($"level {i} is {levels[i].Length} bytes, {format} {width}x{height} needs {TextureLevels.Size(format, width, height, i)}");
        var bytes = new byte[HeaderSize + levels.Sum(l => l.Length)];
        var h = bytes.AsSpan(4);
        "DDS "u8.CopyTo(bytes);
        bool compressed = format != TextureFormat.A8R8G8B8;
        uint flags = 0x1 | 0x2 | 0x4 | 0x1000 | (compressed ? 0x80000u : 0x8u) | (levels.Count > 1 ? 0x20000u : 0);
        Put(h, 0, 124);
        Put(h, 4, flags);
        Put(h, 8, (uint)height);
        Put(h, 12, (uint)width);
        Put(h, 16, compressed ? (uint)TextureLevels.Size(format, width, height, 0) : (uint)width * 4);
        Put(h, 24, (uint)levels.Count);
        var pf = h[72..];
        Put(pf, 0, 32);
        if (compressed)
        {
            Put(pf, 4, 0x4); // DDPF_FOURCC
            FourCc(format).CopyTo(pf[8..]);
        }
        else
        {
            Put(pf, 4, 0x40 | 0x1); // DDPF_RGB | DDPF_ALPHAPIXELS
            Put(pf, 12, 32);
            Put(pf, 16, 0x00FF0000);
            Put(pf, 20, 0x0000FF00);
            Put(pf, 24, 0x000000FF);
            Put(pf, 28, 0xFF000000);
        }
        Put(h, 104, 0x1000 | (levels.Count > 1 ? 0x8u | 0x400000u : 0)); // TEXTURE, plus COMPLEX|MIPMAP for a chain
        int at = HeaderSize;
        foreach (var level in levels)
        {
            level.CopyTo(bytes, at);
            at += level.Length;
        }
        return bytes;
    }

    /// <summary>The four-character code of a block-compressed format ("DXT1", "DXT3", "DXT5").</summary>
    public static byte[] FourCc(TextureFormat format) => format switch
    {
        TextureFormat.Dxt1 => "DXT1"u8.ToArray(),
        TextureFormat.Dxt3 => "DXT3"u8.ToArray(),
        TextureFormat.Dxt5 => "DXT5"u8.ToArray(),
        _ => throw new ArgumentException($"{format} has no FourCC"),
    };

    private static void Put(Span<byte> span, int offset, uint value) =>
        BinaryPrimitives.WriteUInt32LittleEndian(span[offset..], value);
}
