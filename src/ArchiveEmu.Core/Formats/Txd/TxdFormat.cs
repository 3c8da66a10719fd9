using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// RenderWare texture dictionary (GTA III, Vice City, San Andreas on PC): a TexDictionary chunk (0x16) holding a struct
/// (u16 texture count, u16 device id), that many texture native chunks (0x15), and an extension chunk. Entries are the
/// textures, named <c>&lt;texture name&gt;.dds</c>; each is its texture native chunk.
/// </summary>
internal sealed class TxdFormat : ArchiveFormat<TxdIndex>
{
    private const int MinStructSize = 4;

    public static TxdFormat Instance { get; } = new();

    public override string Name => "txd";
    public override string DisplayName => "RenderWare TXD";
    public override EntryAddressing Addressing => EntryAddressing.ByName;

    // The engine finds a texture by name ignoring case (RenderWare's RwTexDictionaryFindNamedTexture; librw's
    // TexDictionary::find compares 32 characters with strncmp_ci), so models may spell a name in any case.
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".txd"];

    private const int MaxBytesAfter = Img.ImgFormat.SectorSize;

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < 2 * RwChunk.HeaderSize + MinStructSize)
            return false;
        var dictionary = RwChunk.Read(head);
        var structChunk = RwChunk.Read(head[RwChunk.HeaderSize..]);
        // Sizes that add up: the struct inside the dictionary, the dictionary filling the file (less than a sector after it:
        // an IMG entry's padding), one version stamp for both. A GTA III gta3.img whose first entry is a TXD starts alike.
        return dictionary.Type == RwChunk.TextureDictionary && dictionary.Length <= length && length - dictionary.Length < MaxBytesAfter
            && structChunk.Type == RwChunk.Struct && structChunk.Size >= MinStructSize && structChunk.Version == dictionary.Version
            && RwChunk.HeaderSize + structChunk.Length <= dictionary.Length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < 2 * RwChunk.HeaderSize + MinStructSize)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for a texture dictionary");
        var dictionary = RwChunk.Read(reader.ReadBytes(0, RwChunk.HeaderSize, "TexDictionary chunk header"));
        if (dictionary.Type != RwChunk.TextureDictionary)
            throw reader.Corrupt(0, $"not a texture dictionary (chunk type 0x{dictionary.Type:X}, not 0x16)");
        if (dictionary.Length > reader.Length)
            throw reader.Corrupt(4, $"the TexDictionary chunk's {dictionary.Size} bytes run past the end of the {reader.Length}-byte file");

        var structHeader = RwChunk.Read(reader.ReadBytes(RwChunk.HeaderSize, RwChunk.HeaderSize, "dictionary struct header"));
        long structEnd = RwChunk.HeaderSize + structHeader.Length;
        if (structHeader.Type != RwChunk.Struct || structHeader.Size < MinStructSize || structEnd > dictionary.Length)
            throw reader.Corrupt(RwChunk.HeaderSize, $"the dictionary's first chunk is not a struct of at least {MinStructSize} bytes inside it (type 0x{structHeader.Type:X}, {structHeader.Size} bytes)");
        var structChunk = reader.ReadBytes(RwChunk.HeaderSize, structHeader.Length, "dictionary struct");
        int count = BinaryPrimitives.ReadUInt16LittleEndian(structChunk.AsSpan(RwChunk.HeaderSize));

        var textures = new TxdTexture[count];
        long at = structEnd;
        for (int i = 0; i < count; i++)
        {
            textures[i] = ReadNative(reader, at, dictionary.Length, i);
            at += textures[i].Length;
        }
        CheckTail(reader, at, dictionary.Length);
        return new TxdIndex(source, dictionary, structChunk, textures, at);
    }

    protected override EmulatedArchive BuildArchive(TxdIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        TxdBuilder.Build(original, patch, pool);

    // A texture's entry name, size and detail, as listings show it.
    protected override IReadOnlyList<EmulatedEntry> UnchangedEntries(TxdIndex original) =>
        original.Textures.Select((t, i) => new EmulatedEntry(i, t.EntryName, t.Length, EntryState.Original, EmulatedEntry.OriginalOrigin) { Detail = t.Detail }).ToArray();

    /// <summary>Texture native <paramref name="i"/> at <paramref name="at"/>: its chunk, struct and D3D header inside the dictionary.</summary>
    private static TxdTexture ReadNative(ArchiveFileReader reader, long at, long end, int i)
    {
        if (at > end - 2 * RwChunk.HeaderSize)
            throw reader.Corrupt(at, $"texture {i}: the dictionary ends at {end}, before its texture native chunk");
        var native = RwChunk.Read(reader.ReadBytes(at, RwChunk.HeaderSize, "texture native header"));
        if (native.Type != RwChunk.TextureNative)
            throw reader.Corrupt(at, $"texture {i}: chunk type 0x{native.Type:X} where a texture native (0x15) should be");
        if (native.Length > end - at)
            throw reader.Corrupt(at + 4, $"texture {i}: the texture native's {native.Size} bytes run past the dictionary's end at {end}");
        long structAt = at + RwChunk.HeaderSize;
        var structHeader = RwChunk.Read(reader.ReadBytes(structAt, RwChunk.HeaderSize, "texture native struct header"));
        if (structHeader.Type != RwChunk.Struct || structHeader.Length > native.Size)
            throw reader.Corrupt(structAt, $"texture {i}: no struct chunk inside its texture native (type 0x{structHeader.Type:X}, {structHeader.Size} bytes in a {native.Size}-byte chunk)");
        if (structHeader.Size < 4)
            throw reader.Corrupt(structAt + 4, $"texture {i}: the {structHeader.Size}-byte struct has no platform id");
        uint platform = reader.ReadUInt32LE(structAt + RwChunk.HeaderSize, "platform id");
        if (platform is not (NativeHeader.D3D8 or NativeHeader.D3D9))
            throw reader.Corrupt(structAt + RwChunk.HeaderSize, $"texture {i}: platform {platform}; only the PC's Direct3D 8 (8) and Direct3D 9 (9) texture natives are supported");
        if (structHeader.Size < TxdTexture.HeaderSize)
            throw reader.Corrupt(structAt + 4, $"texture {i}: the {structHeader.Size}-byte struct is shorter than a Direct3D texture header ({TxdTexture.HeaderSize} bytes)");
        var header = reader.ReadBytes(structAt + RwChunk.HeaderSize, TxdTexture.HeaderSize, "texture native header");
        var name = NativeHeader.TryName(header.AsSpan(NativeHeader.NameOffset, NativeHeader.FieldSize))
            ?? throw reader.Corrupt(structAt + RwChunk.HeaderSize + NativeHeader.NameOffset, $"texture {i}: its name holds a control character or a path separator");
        return new TxdTexture(name, at, native.Length, native.Version, structHeader.Version, header, structAt + structHeader.Length);
    }

    /// <summary>After the natives, the rest of the dictionary is its extension chunk, exactly.</summary>
    private static void CheckTail(ArchiveFileReader reader, long at, long end)
    {
        if (at == end)
            return;
        if (at > end - RwChunk.HeaderSize)
            throw reader.Corrupt(at, $"{end - at} stray bytes after the last texture, too few for the dictionary's extension chunk");
        var extension = RwChunk.Read(reader.ReadBytes(at, RwChunk.HeaderSize, "dictionary extension header"));
        if (extension.Type != RwChunk.Extension || extension.Length != end - at)
            throw reader.Corrupt(at, $"after the last texture: chunk type 0x{extension.Type:X} of {extension.Size} bytes where the dictionary's extension chunk should fill the {end - at - RwChunk.HeaderSize} bytes left (more textures than the count says?)");
    }
}
