using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>
/// What <c>ls</c> shows of an SPD's or SPR's textures and sprites (docs/FORMATS.md, "Atlus SPD and SPR", "Listing"): a DDS's
/// format, size and mips, a TMX's size and bits a pixel, a sprite's texture and rectangle. Never throws: a header it cannot
/// read is described as such, since a listing must not fail on what the builder would serve as stored.
/// </summary>
internal static class SpriteSheetDetail
{
    internal const int DdsHeaderSize = 0x80; // "DDS " + the 124-byte DDS_HEADER
    internal const int TmxHeaderRead = 0x17; // up to and including the pixel format at 0x16
    internal const string UnknownDds = "DDS, unknown format";
    internal const string UnknownTmx = "TMX, unknown format";
    private const uint PixelAlpha = 0x1, PixelFourCc = 0x4, PixelRgb = 0x40;

    /// <summary>"DXT1 256x256, 9 mips" from a DDS file's first bytes (at most <see cref="DdsHeaderSize"/> are looked at).</summary>
    public static string Dds(ReadOnlySpan<byte> h)
    {
        if (h.Length < DdsHeaderSize || !h.StartsWith("DDS "u8) || U32(h, 4) != 124 || U32(h, 76) != 32)
            return UnknownDds;
        uint height = U32(h, 12), width = U32(h, 16), mips = Math.Max(1u, U32(h, 28)); // dwMipMapCount whatever its flag, 0 as 1, as D3D loaders read it
        return $"{DdsFormat(h)} {width}x{height}, {mips} mip{(mips == 1 ? "" : "s")}";
    }

    /// <summary>The DDS description of a mod's file, read through its input (a short file is described, not refused).</summary>
    public static string Dds(EntryInput input)
    {
        Span<byte> h = stackalloc byte[DdsHeaderSize];
        return Dds(h[..input.Read(0, h[..(int)Math.Min(DdsHeaderSize, input.Length)])]);
    }

    /// <summary>"TMX 64x32, 32 bpp" from a TMX file's first bytes: u16 width at 0x12, u16 height at 0x14, the GS pixel storage mode at 0x16.</summary>
    public static string Tmx(ReadOnlySpan<byte> h)
    {
        if (h.Length < TmxHeaderRead || !h[8..].StartsWith("TMX0"u8))
            return UnknownTmx;
        int width = BinaryPrimitives.ReadUInt16LittleEndian(h[0x12..]), height = BinaryPrimitives.ReadUInt16LittleEndian(h[0x14..]);
        string pixels = h[0x16] switch
        {
            0x00 => "32 bpp", 0x01 => "24 bpp", 0x02 or 0x0A => "16 bpp", 0x13 => "8 bpp", 0x14 => "4 bpp", // PSMCT32/24/16/16S, PSMT8, PSMT4
            var mode => $"pixel format 0x{mode:X2}",
        };
        return $"TMX {width}x{height}, {pixels}";
    }

    public static string Tmx(EntryInput input)
    {
        Span<byte> h = stackalloc byte[TmxHeaderRead];
        return Tmx(h[..input.Read(0, h[..(int)Math.Min(TmxHeaderRead, input.Length)])]);
    }

    /// <summary>"on texture 3, 16,0 32x32": an SPD sprite record's texture ID (0x04) and the rectangle FEF names x, y, width, height (0x20–0x2C).</summary>
    public static string SpdSprite(ReadOnlySpan<byte> record) =>
        $"on texture {I32(record, 0x04)}, {I32(record, 0x20)},{I32(record, 0x24)} {I32(record, 0x28)}x{I32(record, 0x2C)}";

    /// <summary>"on texture 1, 0,0-8,8": an SPR sprite record's texture index (0x14) and corners x1, y1, x2, y2 (0x54–0x60).</summary>
    public static string SprSprite(ReadOnlySpan<byte> record) =>
        $"on texture {I32(record, 0x14)}, {I32(record, 0x54)},{I32(record, 0x58)}-{I32(record, 0x5C)},{I32(record, 0x60)}";

    private static string DdsFormat(ReadOnlySpan<byte> h)
    {
        uint flags = U32(h, 80);
        if ((flags & PixelFourCc) != 0)
            return FourCc.Text(U32(h, 84));
        bool rgb32 = (flags & PixelRgb) != 0 && U32(h, 88) == 32 && U32(h, 92) == 0x00FF0000 && U32(h, 96) == 0x0000FF00 && U32(h, 100) == 0x000000FF;
        if (rgb32 && (flags & PixelAlpha) != 0 && U32(h, 104) == 0xFF000000)
            return "A8R8G8B8";
        if (rgb32 && ((flags & PixelAlpha) == 0 || U32(h, 104) == 0))
            return "X8R8G8B8";
        return "unknown format";
    }


    private static uint U32(ReadOnlySpan<byte> h, int at) => BinaryPrimitives.ReadUInt32LittleEndian(h[at..]);
    private static int I32(ReadOnlySpan<byte> h, int at) => BinaryPrimitives.ReadInt32LittleEndian(h[at..]);
}
