namespace ArchiveEmu.TestSupport.Textures;

/// <summary>One TMX as read back: its size, pixel format, comment and the whole TMX bytes (header included).</summary>
public sealed record TmxImage(int Width, int Height, byte PixelFormat, int PaletteCount, string Comment, byte[] Bytes);

/// <summary>Reads a TMX at an offset of a file: the 0x40-byte header, and the size it declares checked against its pixels.</summary>
public static class TmxIndependentReader
{
    /// <summary>Reads the TMX starting at <paramref name="offset"/> of <paramref name="bytes"/>; its declared size bounds it.</summary>
    public static TmxImage Read(byte[] bytes, long offset = 0, string what = "TMX") =>
        Read(new LittleEndianInput(bytes, what), offset);

    internal static TmxImage Read(LittleEndianInput input, long offset)
    {
        input.Need(offset, TmxTestWriter.HeaderSize, "the TMX header");
        if (input.U16(offset, "TMX id") != 2)
            throw input.Error(offset, $"TMX id is {input.U16(offset, "TMX id")}, not 2");
        if (!input.Bytes.AsSpan((int)offset + 8, 4).SequenceEqual("TMX0"u8))
            throw input.Error(offset + 8, "no \"TMX0\" magic");
        uint size = input.U32(offset + 4, "TMX file size");
        int paletteCount = input.U8(offset + 0x10, "palette count");
        byte paletteFormat = input.U8(offset + 0x11, "palette format");
        int width = input.U16(offset + 0x12, "width"), height = input.U16(offset + 0x14, "height");
        byte pixelFormat = input.U8(offset + 0x16, "pixel format");
        if (width == 0 || height == 0)
            throw input.Error(offset + 0x12, $"size {width}x{height}");
        if (paletteCount > 1)
            throw input.Error(offset + 0x10, $"{paletteCount} palettes (the readers described know 0 or 1)");
        long expected = TmxTestWriter.HeaderSize + Palette(input, offset, paletteCount, paletteFormat, pixelFormat)
            + height * Stride(input, offset, pixelFormat, width);
        if (size != expected)
            throw input.Error(offset + 4, $"TMX size {size} is not header + palette + pixels = {expected}");
        input.Need(offset, size, "the TMX");
        string comment = input.Text(offset + 0x24, 28, "TMX comment");
        return new TmxImage(width, height, pixelFormat, paletteCount, comment, input.Slice(offset, size, "the TMX"));
    }

    private static long Stride(LittleEndianInput input, long offset, byte pixelFormat, int width) => pixelFormat switch
    {
        0x00 => width * 4L, // PSMCT32
        0x01 => width * 3L, // PSMCT24
        0x02 or 0x0A => width * 2L, // PSMCT16, PSMCT16S
        0x13 => width, // PSMT8
        0x14 => (width + 1) / 2, // PSMT4
        _ => throw input.Error(offset + 0x16, $"pixel format 0x{pixelFormat:X2} is not one the readers described"),
    };

    private static long Palette(LittleEndianInput input, long offset, int count, byte paletteFormat, byte pixelFormat)
    {
        if (count == 0)
            return 0;
        long colours = pixelFormat switch
        {
            0x13 => 256,
            0x14 => 16,
            _ => throw input.Error(offset + 0x16, $"a palette with the direct pixel format 0x{pixelFormat:X2}"),
        };
        long perColour = paletteFormat switch
        {
            0x00 => 4,
            0x01 => 3,
            0x02 or 0x0A => 2,
            _ => throw input.Error(offset + 0x11, $"palette format 0x{paletteFormat:X2}"),
        };
        return colours * perColour;
    }
}
