using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>
/// Writes Atlus SPR sprite files (Persona 3/4) from Amicitia's and PersonaEditor's description: a 0x20 header ("SPR0" at 8),
/// a texture and a sprite pointer table of 8-byte {type, offset} pairs, 0x80-byte sprites, then TMX textures 16-aligned.
/// </summary>
public static class SprTestWriter
{
    public const int HeaderSize = 0x20, PointerSize = 8, SpriteSize = 0x80;

    /// <summary>A sprite: the index of its texture and its corners (x1, y1) – (x2, y2) on it.</summary>
    public sealed record Sprite(int TextureIndex, int X1, int Y1, int X2, int Y2, string Comment = "");

    public static byte[] Write(IReadOnlyList<byte[]> tmxTextures, IReadOnlyList<Sprite> sprites)
    {
        int textureTable = HeaderSize, spriteTable = textureTable + tmxTextures.Count * PointerSize;
        int spriteStart = spriteTable + sprites.Count * PointerSize;
        var textureOffsets = new int[tmxTextures.Count];
        int at = spriteStart + sprites.Count * SpriteSize;
        for (int i = 0; i < tmxTextures.Count; i++)
        {
            at = (at + 15) & ~15;
            textureOffsets[i] = at;
            at += tmxTextures[i].Length;
        }
        var bytes = new byte[at];
        var s = bytes.AsSpan();
        BinaryPrimitives.WriteUInt16LittleEndian(s, 1); // flags, as Amicitia writes them
        "SPR0"u8.CopyTo(s[8..]);
        Put(s, 0x0C, HeaderSize);
        Put(s, 0x10, bytes.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x14..], checked((ushort)tmxTextures.Count));
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x16..], checked((ushort)sprites.Count));
        Put(s, 0x18, textureTable);
        Put(s, 0x1C, spriteTable);
        for (int i = 0; i < tmxTextures.Count; i++)
        {
            Put(s, textureTable + i * PointerSize + 4, textureOffsets[i]);
            tmxTextures[i].CopyTo(bytes, textureOffsets[i]);
        }
        for (int i = 0; i < sprites.Count; i++)
        {
            int e = spriteStart + i * SpriteSize;
            Put(s, spriteTable + i * PointerSize + 4, e);
            var p = sprites[i];
            if (Encoding.ASCII.GetByteCount(p.Comment) >= 16)
                throw new ArgumentException($"sprite comment {p.Comment} is longer than 15 characters");
            Encoding.ASCII.GetBytes(p.Comment).CopyTo(s[(e + 0x04)..]);
            Put(s, e + 0x14, p.TextureIndex);
            Put(s, e + 0x54, p.X1);
            Put(s, e + 0x58, p.Y1);
            Put(s, e + 0x5C, p.X2);
            Put(s, e + 0x60, p.Y2);
            for (int c = 0; c < 4; c++)
                Put(s, e + 0x64 + 4 * c, unchecked((int)0x80808080)); // the four corner colours, full white at 128 = 1.0
        }
        return bytes;
    }

    private static void Put(Span<byte> span, int offset, int value) =>
        BinaryPrimitives.WriteInt32LittleEndian(span[offset..], value);
}
