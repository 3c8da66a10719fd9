namespace ArchiveEmu.TestSupport.Textures;

/// <summary>One DDS as read back: its format, size and the bytes of every mip level.</summary>
public sealed record DdsImage(TextureFormat Format, int Width, int Height, int MipCount, IReadOnlyList<byte[]> Levels);

/// <summary>
/// Re-reads a DDS from Microsoft's DDS_HEADER / DDS_PIXELFORMAT description, strictly: only 2-D DXT1/3/5 and
/// A8R8G8B8 textures, the level chain filling the file exactly; anything else is an InvalidDataException with the offset.
/// </summary>
public static class DdsIndependentReader
{
    public static DdsImage Read(byte[] bytes, string what = "DDS")
    {
        var input = new LittleEndianInput(bytes, what);
        input.Need(0, DdsTestWriter.HeaderSize, "the DDS header");
        if (!bytes.AsSpan(0, 4).SequenceEqual("DDS "u8))
            throw input.Error(0, "no \"DDS \" magic");
        if (input.U32(4, "dwSize") != 124)
            throw input.Error(4, $"dwSize is {input.U32(4, "dwSize")}, not 124");
        uint flags = input.U32(8, "dwFlags");
        if ((flags & 0x7) != 0x7 || (flags & 0x1000) == 0)
            throw input.Error(8, $"dwFlags 0x{flags:X} lacks CAPS|HEIGHT|WIDTH|PIXELFORMAT");
        if ((flags & 0x800000) != 0)
            throw input.Error(8, "a volume texture (DDSD_DEPTH)");
        uint height = input.U32(12, "dwHeight"), width = input.U32(16, "dwWidth");
        if (width == 0 || height == 0 || width > 0x8000 || height > 0x8000)
            throw input.Error(12, $"size {width}x{height} is outside 1..32768");
        uint mipField = input.U32(28, "dwMipMapCount");
        int mips = (flags & 0x20000) != 0 ? (int)Math.Min(mipField, 64) : 1;
        if (mips < 1 || mips > TextureLevels.FullChain((int)width, (int)height))
            throw input.Error(28, $"dwMipMapCount {mipField} does not fit a {width}x{height} chain");
        if (input.U32(76, "ddspf.dwSize") != 32)
            throw input.Error(76, "DDS_PIXELFORMAT dwSize is not 32");
        var format = ReadFormat(input);
        uint caps2 = input.U32(112, "dwCaps2");
        if (caps2 != 0)
            throw input.Error(112, $"dwCaps2 0x{caps2:X} (cube map or volume) is not a plain 2-D texture");
        uint pitch = input.U32(20, "dwPitchOrLinearSize");
        if ((flags & 0x80000) != 0 && pitch != TextureLevels.Size(format, (int)width, (int)height, 0))
            throw input.Error(20, $"linear size {pitch} is not the top level's {TextureLevels.Size(format, (int)width, (int)height, 0)}");
        if ((flags & 0x8) != 0 && pitch != width * 4)
            throw input.Error(20, $"pitch {pitch} is not width·4 = {width * 4}");

        var levels = new byte[mips][];
        long at = DdsTestWriter.HeaderSize;
        for (int i = 0; i < mips; i++)
        {
            long size = TextureLevels.Size(format, (int)width, (int)height, i);
            levels[i] = input.Slice(at, size, $"mip level {i}");
            at += size;
        }
        if (at != bytes.Length)
            throw input.Error(at, $"{bytes.Length - at} bytes follow the last of {mips} mip levels");
        return new DdsImage(format, (int)width, (int)height, mips, levels);
    }

    private static TextureFormat ReadFormat(LittleEndianInput input)
    {
        uint pfFlags = input.U32(80, "ddspf.dwFlags");
        if ((pfFlags & 0x4) != 0)
        {
            var fourCc = input.Bytes.AsSpan(84, 4);
            if (fourCc.SequenceEqual("DXT1"u8)) return TextureFormat.Dxt1;
            if (fourCc.SequenceEqual("DXT3"u8)) return TextureFormat.Dxt3;
            if (fourCc.SequenceEqual("DXT5"u8)) return TextureFormat.Dxt5;
            throw input.Error(84, $"FourCC \"{System.Text.Encoding.ASCII.GetString(fourCc)}\" is not DXT1, DXT3 or DXT5");
        }
        bool argb = (pfFlags & 0x41) == 0x41 && input.U32(88, "dwRGBBitCount") == 32
            && input.U32(92, "dwRBitMask") == 0x00FF0000 && input.U32(96, "dwGBitMask") == 0x0000FF00
            && input.U32(100, "dwBBitMask") == 0x000000FF && input.U32(104, "dwABitMask") == 0xFF000000;
        if (!argb)
            throw input.Error(80, $"pixel format (flags 0x{pfFlags:X}) is neither a DXT FourCC nor 32-bit A8R8G8B8");
        return TextureFormat.A8R8G8B8;
    }
}
