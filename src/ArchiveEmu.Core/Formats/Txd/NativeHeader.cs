using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// The 88-byte header of a Direct3D 8 (platform 8, GTA III and Vice City) or Direct3D 9 (platform 9, San Andreas) texture
/// native struct: u32 platform; u8 filter mode, u8 addressing (U low nibble, V high), u16 pad; name[32]; mask[32]; u32 raster
/// format; u32 has-alpha (D3D8) or D3DFORMAT (D3D9); u16 width, height; u8 depth, mip levels, raster type; u8 DXT
/// compression (D3D8) or flags (D3D9: 1 alpha, 2 cube, 4 auto-mipmaps, 8 compressed). Then per level a u32 size and bytes.
/// </summary>
internal static class NativeHeader
{
    internal const uint D3D8 = 8, D3D9 = 9;
    internal const int NameOffset = 8, MaskOffset = 40, FieldSize = 32;
    internal const uint RasterMipmap = 0x8000, RasterAutoMipmap = 0x1000, RasterPal8 = 0x2000, RasterPal4 = 0x4000;
    internal const byte D3D9Alpha = 1, D3D9Cube = 2, D3D9AutoMipmaps = 4, D3D9Compressed = 8;
    internal const byte RasterTypeTexture = 4;
    private const uint FourCcDxt1 = 0x31545844, D3dfmtA8R8G8B8 = 21, D3dfmtX8R8G8B8 = 22;

    public static uint RasterFormat(ReadOnlySpan<byte> h) => BinaryPrimitives.ReadUInt32LittleEndian(h[72..]);

    /// <summary>The name bytes up to the first NUL, or null when one is a control character or a path separator.</summary>
    public static string? TryName(ReadOnlySpan<byte> field)
    {
        int end = field.IndexOf((byte)0);
        var name = end < 0 ? field : field[..end];
        foreach (byte b in name)
        {
            if (b < 0x20 || b == 0x7F || b == '/' || b == '\\')
                return null;
        }
        return System.Text.Encoding.Latin1.GetString(name);
    }

    /// <summary>Fills <paramref name="h"/> with a header for <paramref name="dds"/> on <paramref name="platform"/>; name, mask, filter, addressing and the auto-mipmap choice are set by the caller.</summary>
    public static void WritePixels(Span<byte> h, uint platform, DdsTexture dds, bool autoMipmap)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(h, platform);
        uint raster = dds.Pixels switch
        {
            TexturePixels.Dxt1 => dds.HasAlpha ? 0x0100u : 0x0200u, // 1555 or 565, as the game's own DXT1 textures say
            TexturePixels.Dxt3 or TexturePixels.Dxt5 => 0x0300u, // 4444
            TexturePixels.A8R8G8B8 => 0x0500u, // 8888
            _ => 0x0600u, // 888, stored 32 bits a pixel
        };
        if (dds.Levels.Count > 1)
            raster |= RasterMipmap;
        if (autoMipmap)
            raster |= RasterAutoMipmap;
        BinaryPrimitives.WriteUInt32LittleEndian(h[72..], raster);
        bool compressed = dds.Pixels is TexturePixels.Dxt1 or TexturePixels.Dxt3 or TexturePixels.Dxt5;
        uint alphaOrFormat = platform == D3D8 ? (dds.HasAlpha ? 1u : 0u) : dds.Pixels switch
        {
            TexturePixels.Dxt1 => FourCcDxt1,
            TexturePixels.Dxt3 => 0x33545844,
            TexturePixels.Dxt5 => 0x35545844,
            TexturePixels.A8R8G8B8 => D3dfmtA8R8G8B8,
            _ => D3dfmtX8R8G8B8,
        };
        BinaryPrimitives.WriteUInt32LittleEndian(h[76..], alphaOrFormat);
        BinaryPrimitives.WriteUInt16LittleEndian(h[80..], (ushort)dds.Width);
        BinaryPrimitives.WriteUInt16LittleEndian(h[82..], (ushort)dds.Height);
        h[84] = (byte)(compressed ? 16 : 32);
        h[85] = (byte)dds.Levels.Count;
        h[86] = RasterTypeTexture;
        h[87] = platform == D3D8
            ? (byte)(dds.Pixels switch { TexturePixels.Dxt1 => 1, TexturePixels.Dxt3 => 3, TexturePixels.Dxt5 => 5, _ => 0 })
            : (byte)((dds.HasAlpha ? D3D9Alpha : 0) | (autoMipmap ? D3D9AutoMipmaps : 0) | (compressed ? D3D9Compressed : 0));
    }

    /// <summary>"DXT1 256x128, 9 mips" (or the raster format's name for uncompressed and paletted textures).</summary>
    public static string Describe(ReadOnlySpan<byte> h)
    {
        uint platform = BinaryPrimitives.ReadUInt32LittleEndian(h), raster = RasterFormat(h), alphaOrFormat = BinaryPrimitives.ReadUInt32LittleEndian(h[76..]);
        int width = BinaryPrimitives.ReadUInt16LittleEndian(h[80..]), height = BinaryPrimitives.ReadUInt16LittleEndian(h[82..]), levels = h[85];
        string format = platform == D3D8 && h[87] is >= 1 and <= 5 ? $"DXT{h[87]}"
            : platform == D3D9 && (alphaOrFormat & 0x00FFFFFF) == 0x545844 ? "DXT" + (char)(alphaOrFormat >> 24)
            : platform == D3D9 && alphaOrFormat == D3dfmtA8R8G8B8 ? "A8R8G8B8"
            : platform == D3D9 && alphaOrFormat == D3dfmtX8R8G8B8 ? "X8R8G8B8"
            : RasterName(raster);
        return $"{format} {width}x{height}, {levels} mip{(levels == 1 ? "" : "s")}";
    }

    private static string RasterName(uint raster)
    {
        string pixels = (raster & 0x0F00) switch
        {
            // The raster formats by the Direct3D names of what the PC drivers store them as (888 is kept in 32 bits).
            0x0100 => "A1R5G5B5", 0x0200 => "R5G6B5", 0x0300 => "A4R4G4B4", 0x0400 => "L8", 0x0500 => "A8R8G8B8", 0x0600 => "X8R8G8B8", 0x0A00 => "X1R5G5B5",
            _ => $"raster 0x{raster:X}",
        };
        return (raster & RasterPal8) != 0 ? "PAL8 " + pixels : (raster & RasterPal4) != 0 ? "PAL4 " + pixels : pixels;
    }
}
