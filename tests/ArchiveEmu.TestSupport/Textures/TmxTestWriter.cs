using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>Writes small Atlus TMX textures (32-bit PSMCT32, no palette, no mips) from PersonaEditor's and Amicitia's header description.</summary>
public static class TmxTestWriter
{
    public const int HeaderSize = 0x40;

    /// <summary>A <paramref name="width"/>×<paramref name="height"/> TMX whose pixels come from <paramref name="seed"/>.</summary>
    public static byte[] Write(int width, int height, int seed = 1, string comment = "", uint userTextureId = 0)
    {
        if (Encoding.ASCII.GetByteCount(comment) >= 28)
            throw new ArgumentException("a TMX comment holds at most 27 characters");
        var pixels = TestData.Random(seed, checked(width * height * 4));
        var bytes = new byte[HeaderSize + pixels.Length];
        var s = bytes.AsSpan();
        BinaryPrimitives.WriteUInt16LittleEndian(s, 2); // the TMX id PersonaEditor checks
        BinaryPrimitives.WriteUInt32LittleEndian(s[4..], (uint)bytes.Length);
        "TMX0"u8.CopyTo(s[8..]);
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x12..], checked((ushort)width));
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x14..], checked((ushort)height));
        s[0x16] = 0x00; // PSMCT32
        BinaryPrimitives.WriteUInt16LittleEndian(s[0x1A..], 0xFF00); // wrap modes as PersonaEditor expects them
        BinaryPrimitives.WriteUInt32LittleEndian(s[0x1C..], userTextureId);
        Encoding.ASCII.GetBytes(comment).CopyTo(s[0x24..]);
        pixels.CopyTo(bytes, HeaderSize);
        return bytes;
    }
}
