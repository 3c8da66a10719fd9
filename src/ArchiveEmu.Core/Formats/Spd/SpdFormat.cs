using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>
/// Atlus SPD sprite container (Persona 5 and the PC Persona ports; docs/FORMATS.md, "Atlus SPD and SPR"): a 0x20-byte header
/// (<c>SPR0</c>, u16 texture and sprite counts at 0x14 and 0x16, u32 table offsets at 0x18 and 0x1C), 0x30-byte texture records
/// (id, offset and size of the texture's DDS bytes), 0xA0-byte sprite records (id, texture id, coordinates). Little-endian.
/// </summary>
internal sealed class SpdFormat : ArchiveFormat<SpdIndex>
{
    internal const int HeaderSize = 0x20;
    internal const int TextureRecordSize = 0x30;
    internal const int SpriteRecordSize = 0xA0;

    public static SpdFormat Instance { get; } = new();

    public override string Name => "spd";
    public override string DisplayName => "SPD";
    public override EntryAddressing Addressing => EntryAddressing.ByName;

    /// <summary>FEF reads the <c>tex_</c> and <c>spr_</c> prefixes and the extensions ignoring case.</summary>
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".spd"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < HeaderSize || !head.StartsWith("SPR0"u8))
            return false;
        var (textures, sprites, textureTable, spriteTable) = SpriteSheetHeader.Tables(head);
        return textureTable + (long)TextureRecordSize * textures <= length && spriteTable + (long)SpriteRecordSize * sprites <= length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < HeaderSize)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for an SPD header ({HeaderSize} bytes)");
        var header = reader.ReadBytes(0, HeaderSize, "SPD header");
        if (!header.AsSpan().StartsWith("SPR0"u8))
            throw reader.Corrupt(0, "not an SPD sprite container (no SPR0 magic)");
        var (textureCount, spriteCount, textureTable, spriteTable) = SpriteSheetHeader.Tables(header);
        var textureBytes = reader.ReadBytes(textureTable, (long)TextureRecordSize * textureCount, $"texture table of {textureCount} records");
        var spriteBytes = reader.ReadBytes(spriteTable, (long)SpriteRecordSize * spriteCount, $"sprite table of {spriteCount} records");

        var textures = new SpdTexture[textureCount];
        var textureIds = new HashSet<int>();
        for (int i = 0; i < textureCount; i++)
        {
            long at = textureTable + (long)TextureRecordSize * i;
            var record = textureBytes.AsSpan(TextureRecordSize * i, TextureRecordSize).ToArray();
            int id = BinaryPrimitives.ReadInt32LittleEndian(record);
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(record.AsSpan(0x08)), size = BinaryPrimitives.ReadUInt32LittleEndian(record.AsSpan(0x0C));
            if (id < 0 || !textureIds.Add(id))
                throw reader.Corrupt(at, $"texture {i}: ID {id} is {(id < 0 ? "negative" : "used twice")}");
            if (!reader.Contains(offset, size))
                throw reader.Corrupt(at + 0x08, $"texture {id}: data [{offset}, {(long)offset + size}) is outside the {reader.Length}-byte file");
            var dds = reader.ReadBytes(offset, Math.Min(size, SpriteSheetDetail.DdsHeaderSize), $"texture {id}'s DDS header");
            textures[i] = new SpdTexture(id, record, offset, size, SpriteSheetDetail.Dds(dds));
        }

        var sprites = new SpdSprite[spriteCount];
        var spriteIds = new HashSet<int>();
        for (int j = 0; j < spriteCount; j++)
        {
            long at = spriteTable + (long)SpriteRecordSize * j;
            var record = spriteBytes.AsSpan(SpriteRecordSize * j, SpriteRecordSize).ToArray();
            int id = BinaryPrimitives.ReadInt32LittleEndian(record);
            if (id < 0 || !spriteIds.Add(id))
                throw reader.Corrupt(at, $"sprite {j}: ID {id} is {(id < 0 ? "negative" : "used twice")}");
            sprites[j] = new SpdSprite(id, BinaryPrimitives.ReadInt32LittleEndian(record.AsSpan(4)), record, at);
        }
        return new SpdIndex(source, header, textures, sprites);
    }

    protected override EmulatedArchive BuildArchive(SpdIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        SpdBuilder.Build(original, patch, pool);

    // Each texture's and sprite's detail, as listings show it.
    protected override IReadOnlyList<EmulatedEntry> UnchangedEntries(SpdIndex original)
    {
        var details = original.Textures.Select(t => t.Detail).Concat(original.Sprites.Select(s => SpriteSheetDetail.SpdSprite(s.Record))).ToArray();
        return original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, EmulatedEntry.OriginalOrigin) { Detail = details[e.Index] }).ToArray();
    }
}
