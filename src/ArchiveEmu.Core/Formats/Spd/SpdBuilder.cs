using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>
/// Lays out an emulated SPD as FileEmulationFramework's SPD emulator does: the header, the texture table (the original's
/// textures in order, then the appended ones), the sprite table (original order, then added sprites), then each texture's
/// DDS bytes back to back: slices of the original or of the mod's file, nothing copied. Only the header and tables are in memory.
/// </summary>
internal static class SpdBuilder
{
    public static EmulatedArchive Build(SpdIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var plan = SpdPlan.Make(original, patch);
        var sprites = plan.Sprites.ToList();
        int textureCount = original.Textures.Count + plan.NewTextures.Count;
        if (textureCount > ushort.MaxValue || sprites.Count > ushort.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0x14, $"the emulated SPD would have {textureCount} textures and {sprites.Count} sprites; its counts stop at {ushort.MaxValue}");

        long textureTable = SpdFormat.HeaderSize;
        long spriteTable = textureTable + (long)SpdFormat.TextureRecordSize * textureCount;
        long data = spriteTable + (long)SpdFormat.SpriteRecordSize * sprites.Count;
        long size = data + original.Textures.Sum(t => t.DataSize) + plan.NewTextures.Sum(t => t.Change.Input!.Length);
        if (size > int.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0x08, $"the emulated SPD would be {size} bytes; SPD offsets stop at 2 GiB");

        var tables = new byte[data];
        original.Header.CopyTo(tables, 0);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x08), (uint)size);
        BinaryPrimitives.WriteUInt16LittleEndian(tables.AsSpan(0x14), (ushort)textureCount);
        BinaryPrimitives.WriteUInt16LittleEndian(tables.AsSpan(0x16), (ushort)sprites.Count);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x18), (uint)textureTable);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x1C), (uint)spriteTable);

        var builder = new VirtualFileBuilder(pool, expectedSegments: textureCount + 2);
        builder.AppendBytes(tables); // filled in below, before Build: the builder keeps a reference
        var entries = new List<EmulatedEntry>(textureCount + sprites.Count);
        int slot = 0;
        foreach (var texture in original.Textures)
        {
            WriteTexture(tables, slot, texture.Record, builder.Position, texture.DataSize);
            original.AppendOriginal(builder, texture.DataOffset, texture.DataSize);
            entries.Add(new EmulatedEntry(slot++, SpdIndex.TextureName(texture.Id), texture.DataSize, EntryState.Original, EmulatedEntry.OriginalOrigin) { Detail = texture.Detail });
        }
        foreach (var texture in plan.NewTextures)
        {
            var input = texture.Change.Input!;
            WriteTexture(tables, slot, texture.Record, builder.Position, input.Length);
            input.AppendTo(builder);
            entries.Add(new EmulatedEntry(slot++, SpdIndex.TextureName(texture.Id), input.Length, EntryState.Added, texture.Change.Origin, input) { Detail = SpriteSheetDetail.Dds(input) });
        }
        for (int j = 0; j < sprites.Count; j++)
        {
            var sprite = sprites[j];
            sprite.Record.CopyTo(tables, spriteTable + (long)SpdFormat.SpriteRecordSize * j);
            var state = sprite.Added ? EntryState.Added : sprite.Change is null ? EntryState.Original : EntryState.Replaced;
            var input = sprite.Change?.Input is { Length: SpdFormat.SpriteRecordSize } record && sprite.Change.Key.Name!.EndsWith(".spdspr", StringComparison.OrdinalIgnoreCase) ? record : null;
            entries.Add(new EmulatedEntry(slot++, SpdIndex.SpriteName(sprite.Id), SpdFormat.SpriteRecordSize, state, EmulatedEntry.OriginOf(sprite.Change), input)
                { Detail = SpriteSheetDetail.SpdSprite(sprite.Record) }); // the record as written: a moved sprite's new texture
        }
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    private static void WriteTexture(byte[] tables, int slot, byte[] record, long dataOffset, long dataSize)
    {
        var at = tables.AsSpan(SpdFormat.HeaderSize + SpdFormat.TextureRecordSize * slot, SpdFormat.TextureRecordSize);
        record.CopyTo(at);
        BinaryPrimitives.WriteUInt32LittleEndian(at[0x08..], (uint)dataOffset);
        BinaryPrimitives.WriteUInt32LittleEndian(at[0x0C..], (uint)dataSize);
    }
}
