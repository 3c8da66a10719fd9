using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// One texture native chunk of a TXD, as read: where it is, its RW version stamps, and the Direct3D 8/9 struct header
/// whose name, mask, filter and addressing bytes a replacement keeps.
/// </summary>
/// <param name="Name">The texture's name (before the first NUL of its 32-byte field).</param>
/// <param name="Offset">Where the texture native chunk starts in the TXD.</param>
/// <param name="Length">The whole chunk, its 12-byte header included.</param>
/// <param name="Version">The texture native chunk's RW version stamp.</param>
/// <param name="StructVersion">Its struct chunk's stamp.</param>
/// <param name="Header">The struct's first 88 bytes (platform … compression).</param>
/// <param name="ExtensionOffset">Where the bytes after the struct (its extension chunk) start in the TXD.</param>
internal sealed record TxdTexture(string Name, long Offset, long Length, uint Version, uint StructVersion, byte[] Header, long ExtensionOffset)
{
    internal const int HeaderSize = 88;

    public uint Platform => BinaryPrimitives.ReadUInt32LittleEndian(Header);

    /// <summary>The entry's name in the emulated archive: the texture's name with <c>.dds</c>.</summary>
    public string EntryName => Name + ".dds";

    public long ExtensionLength => Offset + Length - ExtensionOffset;

    /// <summary>"DXT1 256x128, 9 mips": what <c>ls</c> shows of it.</summary>
    public string Detail => NativeHeader.Describe(Header);
}

/// <summary>The validated index of a RenderWare texture dictionary: its natives in stored order and the chunks around them.</summary>
internal sealed class TxdIndex : ArchiveIndex
{
    internal TxdIndex(ArchiveSource source, RwChunk dictionary, byte[] structChunk, IReadOnlyList<TxdTexture> textures, long tailOffset)
        : base(source, textures.Select((t, i) => new ArchiveEntry(i, t.EntryName, t.Offset, t.Length)).ToArray())
    {
        Dictionary = dictionary;
        StructChunk = structChunk;
        Textures = textures;
        TailOffset = tailOffset;
    }

    public override IArchiveFormat Format => TxdFormat.Instance;

    /// <summary>The TexDictionary chunk's header as read (its version stamp is kept).</summary>
    internal RwChunk Dictionary { get; }

    /// <summary>The dictionary's struct chunk, header included: u16 texture count, u16 device id (and anything after, kept).</summary>
    internal byte[] StructChunk { get; }

    internal IReadOnlyList<TxdTexture> Textures { get; }

    /// <summary>Where the bytes after the last texture native start: the dictionary's extension chunk, then whatever follows the dictionary (an IMG's sector padding).</summary>
    internal long TailOffset { get; }

    /// <summary>The end of the TexDictionary chunk; bytes after it are kept verbatim.</summary>
    internal long DictionaryEnd => Dictionary.Length;
}
