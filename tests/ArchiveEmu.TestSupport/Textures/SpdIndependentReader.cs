namespace ArchiveEmu.TestSupport.Textures;

/// <summary>An SPD texture as read back: id, entry name and size, where its DDS lies, the DDS bytes and the DDS read strictly.</summary>
public sealed record SpdTextureRecord(int Id, string Name, int Width, int Height, long DataOffset, long DataSize, byte[] Dds, DdsImage Image);

/// <summary>An SPD sprite as read back: id, texture id, rectangle and the whole 0xA0-byte entry.</summary>
public sealed record SpdSpriteRecord(int Id, int TextureId, int X, int Y, int Width, int Height, byte[] Entry);

/// <summary>An SPD as read back, entries in table order.</summary>
public sealed record SpdRecord(IReadOnlyList<SpdTextureRecord> Textures, IReadOnlyList<SpdSpriteRecord> Sprites);

/// <summary>
/// Re-reads an Atlus SPD from the public descriptions (FileEmulationFramework, PersonaEditor), strictly: the declared file
/// size, every table and DDS inside the file and apart from each other, unique ids, sprites on existing textures, and each
/// texture entry's size equal to its DDS's. Anything else is an InvalidDataException naming the offset.
/// </summary>
public static class SpdIndependentReader
{
    public static SpdRecord Read(byte[] bytes, string what = "SPD")
    {
        var input = new LittleEndianInput(bytes, what);
        input.Need(0, SpdTestWriter.HeaderSize, "the SPD header");
        if (!bytes.AsSpan(0, 4).SequenceEqual("SPR0"u8))
            throw input.Error(0, "no \"SPR0\" magic");
        if (input.U32(0x04, "version") != 2)
            throw input.Error(0x04, $"header field 0x04 is {input.U32(0x04, "version")}, not 2");
        if (input.U32(0x08, "file size") != bytes.Length)
            throw input.Error(0x08, $"declared file size {input.U32(0x08, "file size")} is not the file's {bytes.Length}");
        if (input.U32(0x10, "header size") != SpdTestWriter.HeaderSize)
            throw input.Error(0x10, $"header size field is {input.U32(0x10, "header size")}, not 0x20");
        int textureCount = input.U16(0x14, "texture count"), spriteCount = input.U16(0x16, "sprite count");
        long textureTable = input.U32(0x18, "texture table offset"), spriteTable = input.U32(0x1C, "sprite table offset");
        input.Need(textureTable, (long)textureCount * SpdTestWriter.TextureEntrySize, "the texture table");
        input.Need(spriteTable, (long)spriteCount * SpdTestWriter.SpriteEntrySize, "the sprite table");
        var ranges = new List<(long, long, string)>
        {
            (0, SpdTestWriter.HeaderSize, "the header"),
            (textureTable, (long)textureCount * SpdTestWriter.TextureEntrySize, "the texture table"),
            (spriteTable, (long)spriteCount * SpdTestWriter.SpriteEntrySize, "the sprite table"),
        };

        var textures = new List<SpdTextureRecord>();
        for (int i = 0; i < textureCount; i++)
        {
            long e = textureTable + (long)i * SpdTestWriter.TextureEntrySize;
            int id = input.I32(e, "texture id");
            if (textures.Any(t => t.Id == id))
                throw input.Error(e, $"texture id {id} appears twice");
            long offset = input.U32(e + 0x08, "texture data offset"), size = input.U32(e + 0x0C, "texture data size");
            var dds = input.Slice(offset, size, $"texture {id}'s DDS");
            DdsImage image;
            try
            {
                image = DdsIndependentReader.Read(dds, $"{what} texture {id} (DDS at 0x{offset:X})");
            }
            catch (InvalidDataException ex)
            {
                throw input.Error(offset, ex.Message);
            }
            int width = input.I32(e + 0x10, "texture width"), height = input.I32(e + 0x14, "texture height");
            if (width != image.Width || height != image.Height)
                throw input.Error(e + 0x10, $"texture {id}'s entry says {width}x{height}, its DDS {image.Width}x{image.Height}");
            textures.Add(new SpdTextureRecord(id, input.Text(e + 0x20, 16, "texture name"), width, height, offset, size, dds, image));
            ranges.Add((offset, size, $"texture {id}'s DDS"));
        }
        input.NoOverlap(ranges);

        var sprites = new List<SpdSpriteRecord>();
        for (int i = 0; i < spriteCount; i++)
        {
            long e = spriteTable + (long)i * SpdTestWriter.SpriteEntrySize;
            int id = input.I32(e, "sprite id"), textureId = input.I32(e + 4, "sprite texture id");
            if (sprites.Any(p => p.Id == id))
                throw input.Error(e, $"sprite id {id} appears twice");
            if (textures.All(t => t.Id != textureId))
                throw input.Error(e + 4, $"sprite {id} is on texture {textureId}, which the SPD does not hold");
            sprites.Add(new SpdSpriteRecord(id, textureId, input.I32(e + 0x20, "x"), input.I32(e + 0x24, "y"),
                input.I32(e + 0x28, "width"), input.I32(e + 0x2C, "height"), input.Slice(e, SpdTestWriter.SpriteEntrySize, "sprite entry")));
        }
        return new SpdRecord(textures, sprites);
    }
}
