using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Spd;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Spr;

/// <summary>
/// Atlus SPR sprite container (Persona 3 and 4, Persona 4 Golden on PC; docs/FORMATS.md, "Atlus SPD and SPR"): a 0x20-byte
/// header (<c>SPR0</c> at 8, u16 texture and sprite counts at 0x14 and 0x16, u32 pointer-table offsets at 0x18 and 0x1C),
/// 8-byte pointers {u32, u32 offset}, 0x80-byte sprite records (texture index at 0x14), TMX textures. Little-endian.
/// </summary>
internal sealed class SprFormat : ArchiveFormat<SprIndex>
{
    internal const int HeaderSize = 0x20;
    internal const int PointerSize = 8;
    internal const int SpriteRecordSize = 0x80;
    internal const int TmxMinimum = 0x10; // up to and including the TMX0 magic at 8

    public static SprFormat Instance { get; } = new();

    public override string Name => "spr";
    public override string DisplayName => "SPR";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".spr"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < HeaderSize || !head[8..].StartsWith("SPR0"u8))
            return false;
        var (textures, sprites, textureTable, spriteTable) = SpriteSheetHeader.Tables(head);
        return textureTable + (long)PointerSize * textures <= length && spriteTable + (long)PointerSize * sprites <= length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
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

    protected override EmulatedArchive BuildArchive(SprIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        SprBuilder.Build(original, patch, pool);

    // Each texture's and sprite's detail, as listings show it.
    protected override IReadOnlyList<EmulatedEntry> UnchangedEntries(SprIndex original)
    {
        var details = original.Textures.Select(t => t.Detail).Concat(original.Sprites.Select(s => SpriteSheetDetail.SprSprite(s.Record))).ToArray();
        return original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, EmulatedEntry.OriginalOrigin) { Detail = details[e.Index] }).ToArray();
    }
}
