using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// Lays out an emulated texture dictionary: the TexDictionary header and struct rebuilt in memory (chunk size and texture
/// count recomputed, version stamps and device id kept), then the texture natives in stored order — unchanged ones slices
/// of the original, replaced and added ones a struct rebuilt from their DDS file's header with every mip level's bytes a
/// slice of that file — then the dictionary's extension chunk and any bytes after the dictionary, as they were.
/// </summary>
internal static class TxdBuilder
{
    private const int MaxNameLength = NativeHeader.FieldSize - 1;
    private static readonly NameRule Names = new("TXD", TxdFormat.Instance.NameComparer, "'<texture name>.dds'",
        name => name.EndsWith(".dds", StringComparison.OrdinalIgnoreCase) && name.Length > 4);

    /// <summary>A texture of the emulated dictionary: the original's, its replacement, or an addition.</summary>
    private sealed record Planned(TxdTexture? Original, EntryChange? Change);

    public static EmulatedArchive Build(TxdIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 4 * (original.Textures.Count + patch.Changes.Count) + 4);
        var (planned, deleted) = Plan(original, patch);
        if (planned.Count > ushort.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, RwChunk.HeaderSize, $"{planned.Count} textures; a dictionary's u16 count stops at {ushort.MaxValue}");
        var head = new byte[RwChunk.HeaderSize + original.StructChunk.Length];
        builder.AppendBytes(head); // filled in below, once the natives' sizes are known: the builder keeps a reference
        var entries = new List<EmulatedEntry>(planned.Count + deleted.Count);
        for (int i = 0; i < planned.Count; i++)
        {
            var p = planned[i];
            long start = builder.Position;
            string detail;
            if (p.Change is null)
            {
                original.AppendOriginal(builder, p.Original!.Offset, p.Original.Length);
                detail = p.Original.Detail;
            }
            else
            {
                detail = NativeWriter.Append(builder, original, p.Original, p.Change);
            }
            var state = p.Change is null ? EntryState.Original : p.Original is null ? EntryState.Added : EntryState.Replaced;
            string name = p.Original?.EntryName ?? p.Change!.Key.Name!;
            entries.Add(new EmulatedEntry(i, name, builder.Position - start, state, EmulatedEntry.OriginOf(p.Change), p.Change?.Input) { Detail = detail });
        }
        original.AppendOriginal(builder, original.TailOffset, original.Length - original.TailOffset);

        long dictionaryEnd = builder.Position - (original.Length - original.DictionaryEnd);
        RwChunk.Write(head, RwChunk.TextureDictionary, CheckedSize(original, dictionaryEnd - RwChunk.HeaderSize), original.Dictionary.Version);
        original.StructChunk.CopyTo(head.AsSpan(RwChunk.HeaderSize));
        BinaryPrimitives.WriteUInt16LittleEndian(head.AsSpan(2 * RwChunk.HeaderSize), (ushort)planned.Count);
        entries.AddRange(deleted);
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    /// <summary>The emulated textures (original order minus deletes, then additions) and the deleted entries.</summary>
    private static (List<Planned>, List<EmulatedEntry>) Plan(TxdIndex original, ArchivePatch patch)
    {
        var changes = NamedPatch.ByName(original, patch, Names);
        var names = original.Textures.Select(t => t.EntryName).ToArray();
        var (changeOf, added) = NamedPatch.Match(original, names, changes, Names, checkAdded: change => CheckNewName(original, change));
        var planned = new List<Planned>(original.Textures.Count + added.Count);
        var deleted = new List<EmulatedEntry>();
        for (int i = 0; i < original.Textures.Count; i++)
        {
            var texture = original.Textures[i];
            if (changeOf[i] is { IsDelete: true } change)
                deleted.Add(new EmulatedEntry(i, texture.EntryName, 0, EntryState.Deleted, change.Origin));
            else
                planned.Add(new Planned(texture, changeOf[i]));
        }
        planned.AddRange(added.Select(change => new Planned(null, change)));
        return (planned, deleted);
    }

    /// <summary>An added texture's name (the file name without <c>.dds</c>) must fit the 32-byte field with its NUL.</summary>
    private static void CheckNewName(TxdIndex original, EntryChange change)
    {
        string name = NewTextureName(change);
        if (name.Length == 0 || name.Length > MaxNameLength || !Ascii.IsValid(name) || NativeHeader.TryName(Encoding.ASCII.GetBytes(name)) != name)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"cannot add texture '{name}' (from {change.Origin}): texture names are 1 to {MaxNameLength} printable ASCII characters");
    }

    internal static string NewTextureName(EntryChange change) => change.Key.Name![..^".dds".Length];

    private static long CheckedSize(TxdIndex original, long size) => size <= uint.MaxValue ? size
        : throw new ArchiveFormatException(original.Source.Name, 4, $"the emulated dictionary would hold {size} bytes; a RenderWare chunk's u32 size stops at {uint.MaxValue}");
}
