namespace ArchiveEmu.TestSupport.Textures;

/// <summary>A TXD texture as read back: every header field of its native struct, its format and the bytes of each level.</summary>
public sealed record TxdTextureRecord(
    int Platform, uint FilterFlags, string Name, string Mask, uint RasterFormat, uint AlphaOrD3dFormat,
    TextureFormat Format, int Width, int Height, byte Depth, int MipCount, byte RasterType, byte CompressionOrFlags,
    IReadOnlyList<byte[]> Levels, long StructOffset, byte[] Extension)
{
    public byte FilterMode => (byte)FilterFlags;
    public byte UAddressing => (byte)((FilterFlags >> 8) & 0xF);
    public byte VAddressing => (byte)((FilterFlags >> 12) & 0xF);
}

/// <summary>A TXD as read back: device id, library id stamp, textures in order, and how many zero bytes padded it.</summary>
public sealed record TxdRecord(ushort DeviceId, uint LibraryId, IReadOnlyList<TxdTextureRecord> Textures, long TrailingZeroBytes);

/// <summary>
/// Re-reads a RenderWare TXD (PC, D3D8 and D3D9 natives) from the gtamods wiki's description, strictly: chunk sizes add
/// up exactly at every level, one library id throughout, the count matches the natives, each native's struct holds its
/// 88-byte header and exactly the levels its width, height and format call for. Anything else is an
/// InvalidDataException naming the offset. Only zero bytes may follow the dictionary (an IMG pads its entries).
/// </summary>
public static class TxdIndependentReader
{
    private const int H = TxdTestWriter.ChunkHeaderSize;

    public static TxdRecord Read(byte[] bytes, string what = "TXD")
    {
        var input = new LittleEndianInput(bytes, what);
        var (rootId, rootSize, libraryId) = Header(input, 0);
        if (rootId != TxdTestWriter.TexDictionaryId)
            throw input.Error(0, $"chunk 0x{rootId:X} is not a Texture Dictionary (0x16)");
        long end = H + rootSize;
        input.Need(H, rootSize, "the Texture Dictionary");
        for (long i = end; i < bytes.Length; i++)
            if (bytes[i] != 0)
                throw input.Error(i, "non-zero bytes follow the Texture Dictionary");

        var children = Children(input, H, end, libraryId);
        if (children.Count < 2 || children[0].Id != TxdTestWriter.StructId || children[^1].Id != TxdTestWriter.ExtensionId)
            throw input.Error(H, "the dictionary is not Struct, natives…, Extension");
        if (children[0].Size != 4)
            throw input.Error(children[0].Offset, $"the dictionary Struct is {children[0].Size} bytes, not 4");
        int count = input.U16(children[0].Offset + H, "texture count");
        ushort deviceId = input.U16(children[0].Offset + H + 2, "device id");
        var natives = children.Skip(1).Take(children.Count - 2).ToList();
        if (natives.Count != count || natives.Any(c => c.Id != TxdTestWriter.TextureNativeId))
            throw input.Error(children[0].Offset + H, $"count {count}, but the dictionary holds {natives.Count} chunks between Struct and Extension, not all Texture Natives");
        var textures = natives.Select(n => Native(input, n.Offset, libraryId)).ToList();
        return new TxdRecord(deviceId, libraryId, textures, bytes.Length - end);
    }

    private static TxdTextureRecord Native(LittleEndianInput input, long offset, uint libraryId)
    {
        var (_, size, _) = Header(input, offset);
        var parts = Children(input, offset + H, offset + H + size, libraryId);
        if (parts.Count != 2 || parts[0].Id != TxdTestWriter.StructId || parts[1].Id != TxdTestWriter.ExtensionId)
            throw input.Error(offset, "a Texture Native is not exactly Struct + Extension");
        Children(input, parts[1].Offset + H, parts[1].Offset + H + parts[1].Size, libraryId); // plugin chunks must add up too
        long s = parts[0].Offset + H, structEnd = s + parts[0].Size;
        if (parts[0].Size < TxdTestWriter.NativeHeaderSize)
            throw input.Error(parts[0].Offset, $"the native struct is {parts[0].Size} bytes, under the 88-byte header");
        int platform = input.I32(s, "platform id");
        if (platform is not (8 or 9))
            throw input.Error(s, $"platform {platform} is neither 8 (D3D8) nor 9 (D3D9)");
        uint rasterFormat = input.U32(s + 72, "raster format"), alphaOrFormat = input.U32(s + 76, "alpha / D3D format");
        int width = input.U16(s + 80, "width"), height = input.U16(s + 82, "height");
        byte depth = input.U8(s + 84, "depth"), levels = input.U8(s + 85, "level count"), rasterType = input.U8(s + 86, "raster type");
        byte last = input.U8(s + 87, "compression / flags");
        if (width == 0 || height == 0)
            throw input.Error(s + 80, $"size {width}x{height}");
        if ((rasterFormat & 0x6000) != 0)
            throw input.Error(s + 72, $"raster format 0x{rasterFormat:X} is palettised, which the readers described do not cover");
        var format = platform == 8 ? D3d8Format(input, s, last) : D3d9Format(input, s, alphaOrFormat, last);
        if ((format == TextureFormat.A8R8G8B8) != ((rasterFormat & 0xF00) == 0x500))
            throw input.Error(s + 72, $"raster format 0x{rasterFormat:X} does not go with {format}");
        if (format == TextureFormat.A8R8G8B8 && depth != 32)
            throw input.Error(s + 84, $"depth {depth} for a 32-bit texture");
        if (levels < 1 || levels > TextureLevels.FullChain(width, height))
            throw input.Error(s + 85, $"{levels} levels for a {width}x{height} texture");

        var data = new byte[levels][];
        long at = s + TxdTestWriter.NativeHeaderSize;
        for (int i = 0; i < levels; i++)
        {
            long expected = TextureLevels.Size(format, width, height, i);
            uint declared = input.U32(at, $"level {i} size");
            if (declared != expected)
                throw input.Error(at, $"level {i} declares {declared} bytes, a {width}x{height} {format} level {i} is {expected}");
            if (at + 4 + declared > structEnd)
                throw input.Error(at, $"level {i} runs past the end of the native struct");
            data[i] = input.Slice(at + 4, declared, $"level {i}");
            at += 4 + declared;
        }
        if (at != structEnd)
            throw input.Error(at, $"{structEnd - at} bytes in the native struct after its {levels} levels");
        return new TxdTextureRecord(platform, input.U32(s + 4, "filter flags"), input.Name(s + 8, 32, "texture name"),
            input.Name(s + 40, 32, "mask name"), rasterFormat, alphaOrFormat, format, width, height, depth, levels, rasterType,
            last, data, parts[0].Offset, input.Slice(parts[1].Offset + H, parts[1].Size, "extension"));
    }

    private static TextureFormat D3d8Format(LittleEndianInput input, long s, byte compression) => compression switch
    {
        0 => TextureFormat.A8R8G8B8,
        1 => TextureFormat.Dxt1,
        3 => TextureFormat.Dxt3,
        5 => TextureFormat.Dxt5,
        _ => throw input.Error(s + 87, $"D3D8 compression {compression} is not 0, 1, 3 or 5"),
    };

    private static TextureFormat D3d9Format(LittleEndianInput input, long s, uint d3dFormat, byte flags)
    {
        var format = d3dFormat switch
        {
            0x31545844 => TextureFormat.Dxt1,
            0x33545844 => TextureFormat.Dxt3,
            0x35545844 => TextureFormat.Dxt5,
            TxdTestWriter.D3dFormatA8R8G8B8 => TextureFormat.A8R8G8B8,
            _ => throw input.Error(s + 76, $"D3D format 0x{d3dFormat:X} is not DXT1/3/5 or A8R8G8B8 (21)"),
        };
        if (((flags & 0x8) != 0) != (format != TextureFormat.A8R8G8B8))
            throw input.Error(s + 87, $"the compressed flag (flags 0x{flags:X2}) disagrees with {format}");
        if ((flags & 0x2) != 0)
            throw input.Error(s + 87, "a cube texture");
        return format;
    }

    private static (uint Id, uint Size, uint LibraryId) Header(LittleEndianInput input, long offset) =>
        (input.U32(offset, "chunk id"), input.U32(offset + 4, "chunk size"), input.U32(offset + 8, "chunk library id"));

    /// <summary>The chunks filling [start, end) exactly, each inside it and stamped with <paramref name="libraryId"/>.</summary>
    private static List<(uint Id, uint Size, long Offset)> Children(LittleEndianInput input, long start, long end, uint libraryId)
    {
        var list = new List<(uint, uint, long)>();
        for (long at = start; at < end;)
        {
            if (end - at < H)
                throw input.Error(at, $"{end - at} bytes left in the parent, too few for a chunk header");
            var (id, size, stamp) = Header(input, at);
            if (size > end - at - H)
                throw input.Error(at + 4, $"chunk 0x{id:X} of {size} bytes runs past its parent's end at 0x{end:X}");
            if (stamp != libraryId)
                throw input.Error(at + 8, $"library id 0x{stamp:X} differs from the dictionary's 0x{libraryId:X}");
            list.Add((id, size, at));
            at += H + size;
        }
        return list;
    }
}
