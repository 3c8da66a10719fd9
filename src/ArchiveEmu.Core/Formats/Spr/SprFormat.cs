using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Spd;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Spr;

/// <summary>
/// Atlus SPR sprite container (Persona 3 and 4, Persona 4 Golden on PC; docs/FORMATS.md, "Atlus SPD and SPR"): a 0x20-byte
/// header (<c>SPR0</c> at 8, u16 texture and sprite counts at 0x14 and 0x16, u32 pointer-table offsets at 0x18 and 0x1C),
/// 8-byte pointers {u32, u32 offset}, 0x80-byte sprite records (texture index at 0x14), TMX textures. Little-endian.
/// </summary>
internal sealed class SprFormat : IArchiveFormat
{
    internal const int HeaderSize = 0x20;
    internal const int PointerSize = 8;
    internal const int SpriteRecordSize = 0x80;
    internal const int TmxMinimum = 0x10; // up to and including the TMX0 magic at 8

    public static SprFormat Instance { get; } = new();

    public string Name => "spr";
    public EntryAddressing Addressing => EntryAddressing.ByName;
    public StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public IReadOnlyList<string> Extensions { get; } = [".spr"];

    public bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < HeaderSize || !head[8..].StartsWith("SPR0"u8))
            return false;
        var (textures, sprites, textureTable, spriteTable) = SpriteSheetHeader.Tables(head);
        return textureTable + (long)PointerSize * textures <= length && spriteTable + (long)PointerSize * sprites <= length;
    }

    public ArchiveIndex ReadIndex(string path) => ReadIndex(ArchiveSource.File(path));

    public ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < HeaderSize)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for an SPR header ({HeaderSize} bytes)");
        var header = reader.ReadBytes(0, HeaderSize, "SPR header");
        if (!header.AsSpan(8).StartsWith("SPR0"u8))
            throw reader.Corrupt(8, "not an SPR sprite container (no SPR0 magic at 8)");
        var (textureCount, spriteCount, textureTable, spriteTable) = SpriteSheetHeader.Tables(header);
        var texturePointers = reader.ReadBytes(textureTable, (long)PointerSize * textureCount, $"texture pointer table of {textureCount}");
        var spritePointers = reader.ReadBytes(spriteTable, (long)PointerSize * spriteCount, $"sprite pointer table of {spriteCount}");

        var textures = new SprTexture[textureCount];
        for (int i = 0; i < textureCount; i++)
        {
            long at = textureTable + (long)PointerSize * i + 4;
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(texturePointers.AsSpan(PointerSize * i + 4));
            if (!reader.Contains(offset, TmxMinimum) || !reader.ReadBytes(offset + 8, 4, "TMX magic").AsSpan().SequenceEqual("TMX0"u8))
                throw reader.Corrupt(at, $"texture {i}: no TMX file (TMX0 magic) at {offset} in the {reader.Length}-byte file");
            uint size = reader.ReadUInt32LE(offset + 4, "TMX size");
            if (size < TmxMinimum || !reader.Contains(offset, size))
                throw reader.Corrupt(offset + 4, $"texture {i}: TMX [{offset}, {(long)offset + size}) does not fit the {reader.Length}-byte file");
            var head = reader.ReadBytes(offset, Math.Min(size, SpriteSheetDetail.TmxHeaderRead), $"texture {i}'s TMX header");
            textures[i] = new SprTexture(offset, size, SpriteSheetDetail.Tmx(head));
        }

        var sprites = new SprSprite[spriteCount];
        for (int j = 0; j < spriteCount; j++)
        {
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(spritePointers.AsSpan(PointerSize * j + 4));
            sprites[j] = new SprSprite(reader.ReadBytes(offset, SpriteRecordSize, $"sprite {j}"), offset);
        }
        return new SprIndex(source, header, textures, sprites);
    }

    public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) =>
        SprBuilder.Build(original as SprIndex ?? throw new ArgumentException("not an SPR index", nameof(original)), patch, pool);
}
