namespace ArchiveEmu.Core.Formats.Spr;

/// <summary>One texture of an SPR: where its TMX file lies (its size is the TMX header's), and what <c>ls</c> says of it.</summary>
internal sealed record SprTexture(long Offset, long Size, string Detail);

/// <summary>One sprite of an SPR: its 0x80 stored bytes and where they are.</summary>
internal sealed record SprSprite(byte[] Record, long Offset);

/// <summary>
/// The validated index of an Atlus SPR (Persona 3 and 4): the header to keep, textures and sprites by table position. Its
/// entries are the textures, named <c>tex_&lt;index&gt;.tmx</c> (their TMX bytes), then the sprites, <c>spr_&lt;index&gt;.sprt</c>.
/// </summary>
internal sealed class SprIndex : ArchiveIndex
{
    internal SprIndex(ArchiveSource source, byte[] header, IReadOnlyList<SprTexture> textures, IReadOnlyList<SprSprite> sprites)
        : base(source, EntriesOf(textures, sprites))
    {
        Header = header;
        Textures = textures;
        Sprites = sprites;
    }

    public override IArchiveFormat Format => SprFormat.Instance;

    /// <summary>The original's 0x20 header bytes (fields the builder does not rewrite are kept).</summary>
    internal byte[] Header { get; }

    internal IReadOnlyList<SprTexture> Textures { get; }
    internal IReadOnlyList<SprSprite> Sprites { get; }

    internal static string TextureName(int index) => $"tex_{index}.tmx";
    internal static string SpriteName(int index) => $"spr_{index}.sprt";

    private static ArchiveEntry[] EntriesOf(IReadOnlyList<SprTexture> textures, IReadOnlyList<SprSprite> sprites)
    {
        var entries = new ArchiveEntry[textures.Count + sprites.Count];
        for (int i = 0; i < textures.Count; i++)
            entries[i] = new ArchiveEntry(i, TextureName(i), textures[i].Offset, textures[i].Size);
        for (int j = 0; j < sprites.Count; j++)
            entries[textures.Count + j] = new ArchiveEntry(textures.Count + j, SpriteName(j), sprites[j].Offset, SprFormat.SpriteRecordSize);
        return entries;
    }
}
