namespace ArchiveEmu.TestSupport.Textures;

/// <summary>The raster formats the texture test tools know: the three block-compressed ones and uncompressed 32-bit ARGB.</summary>
public enum TextureFormat
{
    Dxt1,
    Dxt3,
    Dxt5,
    A8R8G8B8,
}

/// <summary>Mip-level sizes as the DDS and RenderWare descriptions give them (4×4 blocks of 8 or 16 bytes, or 4 bytes a pixel).</summary>
public static class TextureLevels
{
    /// <summary>The byte count of mip <paramref name="level"/> of a <paramref name="width"/>×<paramref name="height"/> texture.</summary>
    public static long Size(TextureFormat format, int width, int height, int level)
    {
        long w = Math.Max(1, width >> level), h = Math.Max(1, height >> level);
        return format switch
        {
            TextureFormat.Dxt1 => Math.Max(1, (w + 3) / 4) * Math.Max(1, (h + 3) / 4) * 8,
            TextureFormat.Dxt3 or TextureFormat.Dxt5 => Math.Max(1, (w + 3) / 4) * Math.Max(1, (h + 3) / 4) * 16,
            _ => w * h * 4,
        };
    }

    /// <summary>How many levels a full chain down to 1×1 has: 1 + floor(log2(max(width, height))).</summary>
    public static int FullChain(int width, int height)
    {
        int levels = 1;
        for (int largest = Math.Max(width, height); largest > 1; largest >>= 1)
            levels++;
        return levels;
    }

    /// <summary>Deterministic bytes for every level, from <paramref name="seed"/> (level i uses seed·1000 + i).</summary>
    public static byte[][] Pixels(TextureFormat format, int width, int height, int mipCount, int seed) =>
        Enumerable.Range(0, mipCount)
            .Select(i => TestData.Random(seed * 1000 + i, checked((int)Size(format, width, height, i))))
            .ToArray();
}
