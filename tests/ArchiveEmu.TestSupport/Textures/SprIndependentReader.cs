namespace ArchiveEmu.TestSupport.Textures;

/// <summary>An SPR texture as read back: its index, where its TMX lies and the TMX read strictly.</summary>
public sealed record SprTextureRecord(int Index, long Offset, TmxImage Tmx);

/// <summary>An SPR sprite as read back: its index, texture index, corners and the whole 0x80-byte entry.</summary>
public sealed record SprSpriteRecord(int Index, int TextureIndex, int X1, int Y1, int X2, int Y2, string Comment, byte[] Entry);

/// <summary>An SPR as read back, in pointer-table order.</summary>
public sealed record SprRecord(IReadOnlyList<SprTextureRecord> Textures, IReadOnlyList<SprSpriteRecord> Sprites);

/// <summary>
/// Re-reads an Atlus SPR from Amicitia's and PersonaEditor's description, strictly: tables, sprites and TMXs inside the file
/// and apart from each other, every TMX's declared size matching its pixels, sprites on existing textures. Anything else
/// is an InvalidDataException naming the offset.
/// </summary>
public static class SprIndependentReader
{
    public static SprRecord Read(byte[] bytes, string what = "SPR")
    {
        var input = new LittleEndianInput(bytes, what);
        input.Need(0, SprTestWriter.HeaderSize, "the SPR header");
        if (!bytes.AsSpan(8, 4).SequenceEqual("SPR0"u8))
            throw input.Error(8, "no \"SPR0\" magic");
        if (input.U32(0x0C, "header size") != SprTestWriter.HeaderSize)
            throw input.Error(0x0C, $"header size is {input.U32(0x0C, "header size")}, not 0x20");
        int textureCount = input.U16(0x14, "texture count"), spriteCount = input.U16(0x16, "sprite count");
        long textureTable = input.U32(0x18, "texture table offset"), spriteTable = input.U32(0x1C, "sprite table offset");
        input.Need(textureTable, (long)textureCount * SprTestWriter.PointerSize, "the texture pointer table");
        input.Need(spriteTable, (long)spriteCount * SprTestWriter.PointerSize, "the sprite pointer table");
        var ranges = new List<(long, long, string)>
        {
            (0, SprTestWriter.HeaderSize, "the header"),
            (textureTable, (long)textureCount * SprTestWriter.PointerSize, "the texture pointer table"),
            (spriteTable, (long)spriteCount * SprTestWriter.PointerSize, "the sprite pointer table"),
        };

        var textures = new List<SprTextureRecord>();
        for (int i = 0; i < textureCount; i++)
        {
            long offset = input.U32(textureTable + (long)i * SprTestWriter.PointerSize + 4, "texture pointer");
            TmxImage tmx;
            try
            {
                tmx = TmxIndependentReader.Read(input, offset);
            }
            catch (InvalidDataException ex)
            {
                throw input.Error(offset, $"texture {i}: {ex.Message}");
            }
            textures.Add(new SprTextureRecord(i, offset, tmx));
            ranges.Add((offset, tmx.Bytes.Length, $"texture {i}'s TMX"));
        }

        var sprites = new List<SprSpriteRecord>();
        for (int i = 0; i < spriteCount; i++)
        {
            long e = input.U32(spriteTable + (long)i * SprTestWriter.PointerSize + 4, "sprite pointer");
            input.Need(e, SprTestWriter.SpriteSize, $"sprite {i}");
            int textureIndex = input.I32(e + 0x14, "sprite texture index");
            if (textureIndex < 0 || textureIndex >= textureCount)
                throw input.Error(e + 0x14, $"sprite {i} is on texture {textureIndex}, the SPR holds {textureCount}");
            sprites.Add(new SprSpriteRecord(i, textureIndex, input.I32(e + 0x54, "x1"), input.I32(e + 0x58, "y1"),
                input.I32(e + 0x5C, "x2"), input.I32(e + 0x60, "y2"), input.Text(e + 0x04, 16, "sprite comment"),
                input.Slice(e, SprTestWriter.SpriteSize, $"sprite {i}")));
            ranges.Add((e, SprTestWriter.SpriteSize, $"sprite {i}"));
        }
        input.NoOverlap(ranges);
        return new SprRecord(textures, sprites);
    }
}
