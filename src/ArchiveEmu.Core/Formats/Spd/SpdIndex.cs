namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>One texture record of an SPD: its ID, its 0x30 stored bytes (written back with a new offset), where its DDS bytes are, and what <c>ls</c> says of them.</summary>
internal sealed record SpdTexture(int Id, byte[] Record, long DataOffset, long DataSize, string Detail);

/// <summary>One sprite record of an SPD: its ID, the texture it draws from, its 0xA0 stored bytes, and where they are.</summary>
internal sealed record SpdSprite(int Id, int TextureId, byte[] Record, long RecordOffset);

/// <summary>
/// The validated index of an Atlus SPD: the header to keep, the texture and sprite tables. Its entries are the textures,
/// named <c>tex_&lt;id&gt;.dds</c> (their DDS bytes), then the sprites, named <c>spr_&lt;id&gt;.spdspr</c> (their records).
/// </summary>
internal sealed class SpdIndex : ArchiveIndex
{
    internal SpdIndex(ArchiveSource source, byte[] header, IReadOnlyList<SpdTexture> textures, IReadOnlyList<SpdSprite> sprites)
        : base(source, EntriesOf(textures, sprites))
    {
        Header = header;
        Textures = textures;
        Sprites = sprites;
    }

    public override IArchiveFormat Format => SpdFormat.Instance;

    /// <summary>The original's 0x20 header bytes (fields the builder does not rewrite are kept).</summary>
    internal byte[] Header { get; }

    internal IReadOnlyList<SpdTexture> Textures { get; }
    internal IReadOnlyList<SpdSprite> Sprites { get; }

    internal static string TextureName(int id) => $"tex_{id}.dds";
    internal static string SpriteName(int id) => $"spr_{id}.spdspr";

    private static ArchiveEntry[] EntriesOf(IReadOnlyList<SpdTexture> textures, IReadOnlyList<SpdSprite> sprites)
    {
        var entries = new ArchiveEntry[textures.Count + sprites.Count];
        for (int i = 0; i < textures.Count; i++)
            entries[i] = new ArchiveEntry(i, TextureName(textures[i].Id), textures[i].DataOffset, textures[i].DataSize);
        for (int j = 0; j < sprites.Count; j++)
            entries[textures.Count + j] = new ArchiveEntry(textures.Count + j, SpriteName(sprites[j].Id), sprites[j].RecordOffset, SpdFormat.SpriteRecordSize);
        return entries;
    }
}
