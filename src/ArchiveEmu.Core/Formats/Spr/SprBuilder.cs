using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Spd;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Spr;

/// <summary>
/// Lays out an emulated SPR as FileEmulationFramework's SPR builder does: the header, the texture pointers, the sprite pointers
/// (padded to 16 bytes), the sprite records, then every TMX back to back: slices of the original or of the mod's file.
/// </summary>
internal static class SprBuilder
{
    public static EmulatedArchive Build(SprIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var plan = SprPlan.Make(original, patch);
        int textureCount = original.Textures.Count + plan.NewTextures.Count, spriteCount = plan.Sprites.Count;
        if (textureCount > ushort.MaxValue || spriteCount > ushort.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0x14, $"the emulated SPR would have {textureCount} textures and {spriteCount} sprites; its counts stop at {ushort.MaxValue}");
        long pointers = (long)SprFormat.PointerSize * (textureCount + spriteCount);
        long records = SprFormat.HeaderSize + (pointers + 15) / 16 * 16;
        long data = records + (long)SprFormat.SpriteRecordSize * spriteCount;
        long size = data + original.Textures.Sum(t => t.Size) + plan.NewTextures.Sum(t => t.Input!.Length);
        if (size > int.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0x10, $"the emulated SPR would be {size} bytes; SPR offsets stop at 2 GiB");

        var tables = new byte[data];
        original.Header.CopyTo(tables, 0);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x10), (uint)size);
        BinaryPrimitives.WriteUInt16LittleEndian(tables.AsSpan(0x14), (ushort)textureCount);
        BinaryPrimitives.WriteUInt16LittleEndian(tables.AsSpan(0x16), (ushort)spriteCount);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x18), SprFormat.HeaderSize);
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(0x1C), (uint)(SprFormat.HeaderSize + SprFormat.PointerSize * textureCount));

        var builder = new VirtualFileBuilder(pool, expectedSegments: textureCount + 2);
        builder.AppendBytes(tables); // filled in below, before Build: the builder keeps a reference
        var entries = new List<EmulatedEntry>(textureCount + spriteCount);
        for (int i = 0; i < original.Textures.Count; i++)
        {
            var texture = original.Textures[i];
            Pointer(tables, i, builder.Position);
            original.AppendOriginal(builder, texture.Offset, texture.Size);
            entries.Add(new EmulatedEntry(i, SprIndex.TextureName(i), texture.Size, EntryState.Original, EmulatedEntry.OriginalOrigin) { Detail = texture.Detail });
        }
        for (int k = 0; k < plan.NewTextures.Count; k++)
        {
            int i = original.Textures.Count + k;
            var input = plan.NewTextures[k].Input!;
            Pointer(tables, i, builder.Position);
            input.AppendTo(builder);
            entries.Add(new EmulatedEntry(i, SprIndex.TextureName(i), input.Length, EntryState.Added, plan.NewTextures[k].Origin, input) { Detail = SpriteSheetDetail.Tmx(input) });
        }
        for (int j = 0; j < spriteCount; j++)
        {
            var sprite = plan.Sprites[j];
            long at = records + (long)SprFormat.SpriteRecordSize * j;
            Pointer(tables, textureCount + j, at);
            sprite.Record.CopyTo(tables, at);
            var state = sprite.Added ? EntryState.Added : sprite.Change is null ? EntryState.Original : EntryState.Replaced;
            var input = sprite.Change is { } c && c.Key.Name!.EndsWith(".sprt", StringComparison.OrdinalIgnoreCase) ? c.Input : null;
            entries.Add(new EmulatedEntry(textureCount + j, SprIndex.SpriteName(j), SprFormat.SpriteRecordSize, state, EmulatedEntry.OriginOf(sprite.Change), input)
                { Detail = SpriteSheetDetail.SprSprite(sprite.Record) });
        }
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    /// <summary>Pointer <paramref name="slot"/> of the table that starts after the header: a zero u32, then the offset.</summary>
    private static void Pointer(byte[] tables, int slot, long offset) =>
        BinaryPrimitives.WriteUInt32LittleEndian(tables.AsSpan(SprFormat.HeaderSize + SprFormat.PointerSize * slot + 4), (uint)offset);
}
