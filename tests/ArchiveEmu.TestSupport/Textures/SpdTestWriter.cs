using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>
/// Writes Atlus SPD sprite files (Persona 5 PC) from the layout FileEmulationFramework's SPD emulator and PersonaEditor
/// describe: a 0x20 header, 0x30-byte texture entries, 0xA0-byte sprite entries, then the DDS payloads in order.
/// </summary>
public static class SpdTestWriter
{
    public const int HeaderSize = 0x20, TextureEntrySize = 0x30, SpriteEntrySize = 0xA0;

    /// <summary>A texture: its id, its DDS file and the name in its entry (at most 15 ASCII characters).</summary>
    public sealed record Texture(int Id, byte[] Dds, string Name = "");

    /// <summary>A sprite: its id, the id of its texture and its rectangle on that texture.</summary>
    public sealed record Sprite(int Id, int TextureId, int X, int Y, int Width, int Height);

    public static byte[] Write(IReadOnlyList<Texture> textures, IReadOnlyList<Sprite> sprites)
    {
        int textureTable = HeaderSize, spriteTable = textureTable + textures.Count * TextureEntrySize;
        int dataStart = spriteTable + sprites.Count * SpriteEntrySize;
        var bytes = new byte[dataStart + textures.Sum(t => t.Dds.Length)];
        var s = bytes.AsSpan();
        "SPR0"u8.CopyTo(s);
        Put(s, 0x04, 2);
        Put(s, 0x08, bytes.Length);
        Put(s, 0x10, HeaderSize);
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x14..], checked((ushort)textures.Count));
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x16..], checked((ushort)sprites.Count));
        Put(s, 0x18, textureTable);
        Put(s, 0x1C, spriteTable);

        int at = dataStart;
        for (int i = 0; i < textures.Count; i++)
        {
            var t = textures[i];
            var e = s.Slice(textureTable + i * TextureEntrySize, TextureEntrySize);
            Put(e, 0x00, t.Id);
            Put(e, 0x08, at);
            Put(e, 0x0C, t.Dds.Length);
            Put(e, 0x10, BinaryPrimitives.ReadInt32LittleEndian(t.Dds.AsSpan(16))); // the DDS's dwWidth
            Put(e, 0x14, BinaryPrimitives.ReadInt32LittleEndian(t.Dds.AsSpan(12))); // the DDS's dwHeight
            if (Encoding.ASCII.GetByteCount(t.Name) >= 16)
                throw new ArgumentException($"texture name {t.Name} is longer than 15 characters");
            Encoding.ASCII.GetBytes(t.Name).CopyTo(e[0x20..]);
            t.Dds.CopyTo(bytes, at);
            at += t.Dds.Length;
        }

        for (int i = 0; i < sprites.Count; i++)
        {
            var p = sprites[i];
            var e = s.Slice(spriteTable + i * SpriteEntrySize, SpriteEntrySize);
            Put(e, 0x00, p.Id);
            Put(e, 0x04, p.TextureId);
            Put(e, 0x20, p.X);
            Put(e, 0x24, p.Y);
            Put(e, 0x28, p.Width);
            Put(e, 0x2C, p.Height);
            Put(e, 0x38, p.Width); // the screen size PersonaEditor reads, here the sprite's own
            Put(e, 0x3C, p.Height);
            Encoding.ASCII.GetBytes($"sprite {p.Id}").CopyTo(e[0x70..]); // a deterministic comment a rebuild must keep
        }
        return bytes;
    }

    private static void Put(Span<byte> span, int offset, int value) =>
        BinaryPrimitives.WriteInt32LittleEndian(span[offset..], value);
}
