using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>The pixel formats a PC texture native can hold that a DDS file gives.</summary>
internal enum TexturePixels { Dxt1, Dxt3, Dxt5, A8R8G8B8, X8R8G8B8 }

/// <summary>
/// A DDS file read for injection into a TXD: its pixel format, size and where each mip level's bytes are in the file.
/// Only what a Direct3D 8/9 native texture can hold is accepted (docs/FORMATS.md, "RenderWare TXD"): DXT1/3/5 or 32-bit
/// A8R8G8B8/X8R8G8B8, power-of-two sides, a plain 2D texture whose mip chain fits its size and the file.
/// </summary>
internal sealed record DdsTexture(TexturePixels Pixels, int Width, int Height, bool HasAlpha, IReadOnlyList<(long Offset, long Size)> Levels)
{
    internal const int HeaderSize = 128; // "DDS " + the 124-byte DDS_HEADER
    private const long MaxRaster = uint.MaxValue - 1024L * 1024; // room left for the native's headers, sizes and extension
    private const uint PixelAlpha = 0x1, PixelFourCc = 0x4, PixelRgb = 0x40;
    private const uint Caps2CubeMap = 0x200, Caps2Volume = 0x200000;

    /// <summary>Reads and checks the DDS header of <paramref name="input"/>; anything a PC native cannot hold is one <see cref="ArchiveFormatException"/> naming the file.</summary>
    public static DdsTexture Read(EntryInput input)
    {
        string file = input.ToString();
        if (input.Length < HeaderSize)
            throw Refuse(file, 0, $"the {input.Length}-byte file is too short for a DDS header ({HeaderSize} bytes)");
        var h = new byte[HeaderSize];
        input.Read(0, h);
        if (!h.AsSpan().StartsWith("DDS "u8) || U32(h, 4) != 124 || U32(h, 76) != 32)
            throw Refuse(file, 0, "not a DDS file (no \"DDS \" magic with a 124-byte header and a 32-byte pixel format)");
        uint height = U32(h, 12), width = U32(h, 16), mipCount = U32(h, 28);
        if ((U32(h, 112) & (Caps2CubeMap | Caps2Volume)) != 0)
            throw Refuse(file, 112, "a cube map or volume texture; a TXD texture is a plain 2D texture");
        var (pixels, alpha) = PixelsOf(file, h);
        if (width is 0 or > 32768 || height is 0 or > 32768 || !IsPowerOfTwo(width) || !IsPowerOfTwo(height))
            throw Refuse(file, 12, $"{width}x{height} is not a power of two on each side (at most 32768), which the game's Direct3D 8/9 textures need");

        // dwMipMapCount whatever DDSD_MIPMAPCOUNT says (Microsoft's DDS guide: readers should not rely on the flag, which some
        // writers leave out), 0 read as 1, as the SPD listing and the tests' reader take it
        int fullChain = 1 + (int)Math.Log2(Math.Max(width, height));
        int levels = mipCount > 0 ? (int)Math.Min(mipCount, 64) : 1;
        if (mipCount > fullChain)
            throw Refuse(file, 28, $"mip chain inconsistent: {mipCount} levels for {width}x{height}, whose full chain has {fullChain}");

        var sizes = new (long, long)[levels];
        long at = HeaderSize;
        for (int k = 0; k < levels; k++)
        {
            long size = LevelSize(pixels, Math.Max(1, (int)width >> k), Math.Max(1, (int)height >> k));
            sizes[k] = (at, size);
            at += size;
        }
        if (at - HeaderSize > MaxRaster)
            throw Refuse(file, 12, $"{pixels} {width}x{height} with {levels} level(s) is {at - HeaderSize} bytes; a texture native's u32 chunk size stops at {MaxRaster}");
        if (at > input.Length)
            throw Refuse(file, input.Length, $"{levels} mip level(s) of {pixels} {width}x{height} need {at - HeaderSize} bytes after the header; the file has {input.Length - HeaderSize}");
        return new DdsTexture(pixels, (int)width, (int)height, alpha, sizes);
    }

    /// <summary>The bytes of one mip level: 4x4 blocks of 8 (DXT1) or 16 bytes, or 4 bytes a pixel.</summary>
    public static long LevelSize(TexturePixels pixels, int width, int height) => pixels switch
    {
        TexturePixels.Dxt1 => Math.Max(1L, (width + 3) / 4) * Math.Max(1, (height + 3) / 4) * 8,
        TexturePixels.Dxt3 or TexturePixels.Dxt5 => Math.Max(1L, (width + 3) / 4) * Math.Max(1, (height + 3) / 4) * 16,
        _ => (long)width * height * 4,
    };

    private static (TexturePixels, bool) PixelsOf(string file, byte[] h)
    {
        uint flags = U32(h, 80);
        if ((flags & PixelFourCc) != 0)
        {
            uint fourCc = U32(h, 84);
            return fourCc switch
            {
                0x31545844 => (TexturePixels.Dxt1, (flags & PixelAlpha) != 0), // "DXT1"; its 1-bit alpha is announced, not scanned
                0x33545844 => (TexturePixels.Dxt3, true),
                0x35545844 => (TexturePixels.Dxt5, true),
                _ => throw Refuse(file, 84, $"pixel format '{FourCc.Text(fourCc)}' cannot go in a Direct3D 8/9 TXD texture (DXT1, DXT3, DXT5 or 32-bit A8R8G8B8/X8R8G8B8 only)"),
            };
        }
        bool rgb32 = (flags & PixelRgb) != 0 && U32(h, 88) == 32 && U32(h, 92) == 0x00FF0000 && U32(h, 96) == 0x0000FF00 && U32(h, 100) == 0x000000FF;
        if (rgb32 && (flags & PixelAlpha) != 0 && U32(h, 104) == 0xFF000000)
            return (TexturePixels.A8R8G8B8, true);
        if (rgb32 && ((flags & PixelAlpha) == 0 || U32(h, 104) == 0))
            return (TexturePixels.X8R8G8B8, false);
        throw Refuse(file, 80, $"uncompressed pixel format ({U32(h, 88)} bits, masks R {U32(h, 92):X8} G {U32(h, 96):X8} B {U32(h, 100):X8} A {U32(h, 104):X8}) is not 32-bit A8R8G8B8 or X8R8G8B8");
    }


    private static bool IsPowerOfTwo(uint value) => (value & (value - 1)) == 0;
    private static uint U32(byte[] h, int at) => BinaryPrimitives.ReadUInt32LittleEndian(h.AsSpan(at));
    private static ArchiveFormatException Refuse(string file, long offset, string problem) => new(file, offset, problem);
}
