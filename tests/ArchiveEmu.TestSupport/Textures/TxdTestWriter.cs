using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>
/// Writes RenderWare texture dictionaries (GTA III / VC / SA on PC) from the gtamods wiki's description: a TexDictionary
/// (0x16) holding a Struct (count, device id), one Texture Native (0x15) per texture — its Struct and an empty Extension
/// (0x03) — and an empty Extension. Native structs are Direct3D 8 (platform 8) or Direct3D 9 (platform 9).
/// </summary>
public static class TxdTestWriter
{
    public const uint TexDictionaryId = 0x16, TextureNativeId = 0x15, StructId = 0x01, ExtensionId = 0x03;
    public const uint SanAndreasLibraryId = 0x1803FFFF;
    public const int ChunkHeaderSize = 12, NativeHeaderSize = 88;
    public const uint D3dFormatA8R8G8B8 = 21;

    /// <summary>One texture: platform 8 or 9, names, filter and addressing modes, format and the bytes of each mip level.</summary>
    public sealed record Texture(int Platform, string Name, string Mask, TextureFormat Format, int Width, int Height,
        IReadOnlyList<byte[]> Levels, byte FilterMode = 2, byte UAddressing = 1, byte VAddressing = 1)
    {
        /// <summary>A texture with <paramref name="mipCount"/> levels of deterministic bytes from <paramref name="seed"/>.</summary>
        public static Texture Create(int platform, string name, string mask, TextureFormat format, int width, int height,
            int mipCount = 1, int seed = 1) =>
            new(platform, name, mask, format, width, height, TextureLevels.Pixels(format, width, height, mipCount, seed));
    }

    public static byte[] Write(IReadOnlyList<Texture> textures, ushort deviceId = 2, uint libraryId = SanAndreasLibraryId)
    {
        var body = new MemoryStream();
        var count = new byte[4];
        BinaryPrimitives.WriteUInt16LittleEndian(count, checked((ushort)textures.Count));
        BinaryPrimitives.WriteUInt16LittleEndian(count.AsSpan(2), deviceId);
        body.Write(Chunk(StructId, libraryId, count));
        foreach (var texture in textures)
            body.Write(Chunk(TextureNativeId, libraryId, [.. Chunk(StructId, libraryId, NativeStruct(texture)), .. Chunk(ExtensionId, libraryId, [])]));
        body.Write(Chunk(ExtensionId, libraryId, []));
        return Chunk(TexDictionaryId, libraryId, body.ToArray());
    }

    /// <summary>The raster format word for a format: 565 (DXT1), 4444 (DXT3/DXT5) or 8888, plus 0x8000 with mips.</summary>
    public static uint RasterFormat(TextureFormat format, int levels) =>
        (format switch
        {
            TextureFormat.Dxt1 => 0x0200u,
            TextureFormat.Dxt3 or TextureFormat.Dxt5 => 0x0300u,
            _ => 0x0500u,
        }) | (levels > 1 ? 0x8000u : 0);

    /// <summary>The D3D9 format word: the FourCC as a little-endian number, or D3DFMT_A8R8G8B8 (21).</summary>
    public static uint D3dFormat(TextureFormat format) => format == TextureFormat.A8R8G8B8
        ? D3dFormatA8R8G8B8
        : BinaryPrimitives.ReadUInt32LittleEndian(DdsTestWriter.FourCc(format));

    private static byte[] NativeStruct(Texture t)
    {
        if (t.Platform is not (8 or 9))
            throw new ArgumentException($"platform {t.Platform} is neither 8 (D3D8) nor 9 (D3D9)");
        var bytes = new byte[NativeHeaderSize + t.Levels.Sum(l => 4 + l.Length)];
        var s = bytes.AsSpan();
        BinaryPrimitives.WriteUInt32LittleEndian(s, (uint)t.Platform);
        BinaryPrimitives.WriteUInt32LittleEndian(s[4..], t.FilterMode | (uint)(t.UAddressing & 0xF) << 8 | (uint)(t.VAddressing & 0xF) << 12);
        PutName(s.Slice(8, 32), t.Name);
        PutName(s.Slice(40, 32), t.Mask);
        BinaryPrimitives.WriteUInt32LittleEndian(s[72..], RasterFormat(t.Format, t.Levels.Count));
        bool compressed = t.Format != TextureFormat.A8R8G8B8;
        bool alpha = t.Format != TextureFormat.Dxt1;
        BinaryPrimitives.WriteUInt32LittleEndian(s[76..], t.Platform == 9 ? D3dFormat(t.Format) : alpha ? 1u : 0u);
        BinaryPrimitives.WriteUInt16LittleEndian(s[80..], checked((ushort)t.Width));
        BinaryPrimitives.WriteUInt16LittleEndian(s[82..], checked((ushort)t.Height));
        s[84] = (byte)(compressed ? 16 : 32);
        s[85] = checked((byte)t.Levels.Count);
        s[86] = 4; // raster type: texture
        s[87] = t.Platform == 9
            ? (byte)((alpha ? 0x1 : 0) | (compressed ? 0x8 : 0))
            : (byte)(t.Format switch { TextureFormat.Dxt1 => 1, TextureFormat.Dxt3 => 3, TextureFormat.Dxt5 => 5, _ => 0 });
        int at = NativeHeaderSize;
        for (int i = 0; i < t.Levels.Count; i++)
        {
            if (t.Levels[i].Length != TextureLevels.Size(t.Format, t.Width, t.Height, i))
                throw new ArgumentException($"{t.Name} level {i} is {t.Levels[i].Length} bytes, not {TextureLevels.Size(t.Format, t.Width, t.Height, i)}");
            BinaryPrimitives.WriteUInt32LittleEndian(s[at..], (uint)t.Levels[i].Length);
            t.Levels[i].CopyTo(bytes, at + 4);
            at += 4 + t.Levels[i].Length;
        }
        return bytes;
    }

    private static void PutName(Span<byte> field, string name)
    {
        if (Encoding.ASCII.GetByteCount(name) >= field.Length)
            throw new ArgumentException($"name {name} is longer than {field.Length - 1} characters");
        Encoding.ASCII.GetBytes(name).CopyTo(field);
    }

    /// <summary>A RenderWare chunk: id, payload size and library id stamp, then the payload.</summary>
    public static byte[] Chunk(uint id, uint libraryId, byte[] payload)
    {
        var bytes = new byte[ChunkHeaderSize + payload.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(bytes, id);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(4), (uint)payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8), libraryId);
        payload.CopyTo(bytes, ChunkHeaderSize);
        return bytes;
    }
}
