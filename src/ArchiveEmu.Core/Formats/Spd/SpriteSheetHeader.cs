using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>The header fields an SPD and an SPR share at the same offsets (docs/FORMATS.md, "Atlus SPD and SPR").</summary>
internal static class SpriteSheetHeader
{
    /// <summary>u16 texture and sprite counts at 0x14 and 0x16, u32 texture and sprite table offsets at 0x18 and 0x1C.</summary>
    public static (int Textures, int Sprites, long TextureTable, long SpriteTable) Tables(ReadOnlySpan<byte> header) => (
        BinaryPrimitives.ReadUInt16LittleEndian(header[0x14..]), BinaryPrimitives.ReadUInt16LittleEndian(header[0x16..]),
        BinaryPrimitives.ReadUInt32LittleEndian(header[0x18..]), BinaryPrimitives.ReadUInt32LittleEndian(header[0x1C..]));
}
