using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Issue 22, Atlus SPR (Persona 3 and 4): TMX textures and sprites by table position, FEF's naming rules with <c>.tmx</c> and
/// <c>.sprt</c>. Every emulated SPR is re-read by <see cref="SprIndependentReader"/> and compared byte for byte.
/// </summary>
public sealed class SprTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spr");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static IArchiveFormat Spr => ArchiveFormats.ByName("spr")!;

    internal static byte[] Tmx(int seed, int size = 4) => TmxTestWriter.Write(size, size, seed);

    // Textures 0 and 1; sprite 0 on texture 0, sprites 1 and 2 on texture 1.
    internal static byte[] Original() => SprTestWriter.Write([Tmx(1), Tmx(2, 8)],
        [new(0, 0, 0, 4, 4, "zero"), new(1, 0, 0, 4, 4, "one"), new(1, 4, 4, 8, 8, "two")]);

    private string WriteOriginal() => _dir.Write("game/map.spr", Original());

    private (SprRecord Record, EmulatedArchive Archive, byte[] Bytes) Build(string spr, params (string Name, byte[]? Bytes)[] files)
    {
        var changes = files.Select(f => new EntryChange(EntryKey.ByName(f.Name),
            f.Bytes is null ? null : EntryInput.FromFile(_dir.Write($"mod/{f.Name}", f.Bytes)), "mod")).ToArray();
        var archive = Spr.Build(Spr.ReadIndex(spr), new ArchivePatch(changes));
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return (SprIndependentReader.Read(bytes, "emulated SPR"), archive, bytes);
    }

    private static byte[] Moved(SprSpriteRecord sprite, int textureIndex)
    {
        var entry = (byte[])sprite.Entry.Clone();
        BinaryPrimitives.WriteInt32LittleEndian(entry.AsSpan(0x14), textureIndex);
        return entry;
    }

    [Test]
    public void ReadIndex_ListsTheTmxTexturesThenTheSprites_AndDetectionTellsSprFromSpd()
    {
        var path = WriteOriginal();
        var original = SprIndependentReader.Read(File.ReadAllBytes(path));
        var index = Spr.ReadIndex(path);
        Assert.That(ArchiveFormats.Detect(path), Is.SameAs(Spr));
        Assert.That(index.Entries.Select(e => e.Name), Is.EqualTo(new[] { "tex_0.tmx", "tex_1.tmx", "spr_0.sprt", "spr_1.sprt", "spr_2.sprt" }));
        var bytes = File.ReadAllBytes(path);
        Assert.That(bytes.AsSpan((int)index.Entries[1].Offset, (int)index.Entries[1].Size).ToArray(), Is.EqualTo(original.Textures[1].Tmx.Bytes));
        Assert.That(bytes.AsSpan((int)index.Entries[4].Offset, 0x80).ToArray(), Is.EqualTo(original.Sprites[2].Entry));
    }

    [Test]
    public void Build_TexFile_AppendsItsTmx_AndPointsEverySpriteOnThatTextureAtIt()
    {
        var path = WriteOriginal();
        var original = SprIndependentReader.Read(File.ReadAllBytes(path));
        var tmx = Tmx(9, 16);
        var (built, archive, _) = Build(path, ("tex_1.tmx", tmx));
        using (archive)
        {
            Assert.That(built.Textures.Select(t => t.Tmx.Bytes), Is.EqualTo(new[] { original.Textures[0].Tmx.Bytes, original.Textures[1].Tmx.Bytes, tmx }));
            Assert.That(built.Sprites.Select(s => s.Entry), Is.EqualTo(new[] { original.Sprites[0].Entry, Moved(original.Sprites[1], 2), Moved(original.Sprites[2], 2) }));
            // A sprite moved onto the new texture is the texture's mod's change; a sprite record is 0x80 bytes.
            Assert.That(archive.Entries.Select(e => (e.Index, e.Name, e.State, e.Origin, e.Size)), Is.EqualTo(new[]
            {
                (0, "tex_0.tmx", EntryState.Original, "original", (long)original.Textures[0].Tmx.Bytes.Length),
                (1, "tex_1.tmx", EntryState.Original, "original", original.Textures[1].Tmx.Bytes.Length),
                (2, "tex_2.tmx", EntryState.Added, "mod", tmx.Length),
                (3, "spr_0.sprt", EntryState.Original, "original", 0x80), (4, "spr_1.sprt", EntryState.Replaced, "mod", 0x80),
                (5, "spr_2.sprt", EntryState.Replaced, "mod", 0x80),
            }));
            Assert.That(archive.BytesFromLooseFiles, Is.EqualTo(tmx.Length));
        }
    }

    [Test]
    public void Build_TexFileWithAnExclusion_AndAnSprFile_MoveOnlyTheirSprites()
    {
        var path = WriteOriginal();
        var (built, archive, _) = Build(path, ("tex_1~2.tmx", Tmx(10)), ("spr_2.tmx", Tmx(11)));
        using (archive)
        {
            // Name order gives the new indexes: spr_2.tmx is 2, tex_1~2.tmx is 3.
            Assert.That(built.Textures[2].Tmx.Bytes, Is.EqualTo(Tmx(11)));
            Assert.That(built.Sprites.Select(s => s.TextureIndex), Is.EqualTo(new[] { 0, 3, 2 }));
        }
    }

    [Test]
    public void Build_TexFileWithAnExclusion_LeavesTheListedSpriteOnTheOldTexture()
    {
        var path = WriteOriginal();
        var original = SprIndependentReader.Read(File.ReadAllBytes(path));
        var (built, archive, _) = Build(path, ("tex_1~1.tmx", Tmx(14)));
        using (archive)
        {
            Assert.That(built.Sprites.Select(s => s.TextureIndex), Is.EqualTo(new[] { 0, 1, 2 }));
            Assert.That(built.Sprites[1].Entry, Is.EqualTo(original.Sprites[1].Entry));
        }
    }

    [Test]
    public void Build_SprtFiles_ReplaceARecord_AndAddOneWithItsTexture()
    {
        var path = WriteOriginal();
        var records = SprIndependentReader.Read(SprTestWriter.Write([Tmx(1)], [new(0, 1, 2, 3, 4, "new zero"), new(0, 5, 6, 7, 8, "added")])).Sprites;
        var (built, archive, _) = Build(path, ("spr_0.sprt", records[0].Entry), ("spr_3.sprt", records[1].Entry), ("spr_3.tmx", Tmx(12)));
        using (archive)
        {
            Assert.That(built.Sprites[0].Entry, Is.EqualTo(records[0].Entry));
            Assert.That(built.Sprites[3].Entry, Is.EqualTo(Moved(records[1], 2)));
            Assert.That(archive.Entries.Single(e => e.Name == "spr_3.sprt").State, Is.EqualTo(EntryState.Added));
        }
    }

    [TestCase("tex_0.dds", "names no SPR texture or sprite")]
    [TestCase("tex_2.tmx", "has no texture 2")]
    [TestCase("spr_0_7.tmx", "names sprite 7")]
    [TestCase("spr_1.spdspr", "names no SPR texture or sprite")]
    public void Build_ABadName_IsOneErrorNamingTheArchiveAndTheName(string name, string problem)
    {
        var path = WriteOriginal();
        Assert.That(() => Build(path, (name, Tmx(13))), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(path).And.Message.Contains(name).And.Message.Contains(problem));
    }

    [TestCase("tex_0.tmx", "not a TMX file")]
    [TestCase("spr_0.sprt", "a sprite record is 128")]
    public void Build_ATmxThatIsNotOne_AndAShortSprt_AreRefused(string name, string problem)
    {
        var path = WriteOriginal();
        Assert.That(() => Build(path, (name, new byte[100])), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(problem));
    }

    [TestCase(0x20 + 4, 4, 0xFFFFFF00u, "texture 0: no TMX", TestName = "ReadIndex_OfAHostileSpr_IsOneClearError(texture 0's pointer)")]
    [TestCase(0x16, 2, 0xFFFFu, "sprite pointer table", TestName = "ReadIndex_OfAHostileSpr_IsOneClearError(sprite count)")]
    public void ReadIndex_OfAHostileSpr_IsOneClearError(int at, int width, uint value, string problem)
    {
        var bytes = Original();
        if (width == 4)
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(at), value);
        else
            BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(at), (ushort)value);
        var path = _dir.Write("bad.spr", bytes);
        Assert.That(() => Spr.ReadIndex(path), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(path).And.Message.Contains(problem));
    }
}
