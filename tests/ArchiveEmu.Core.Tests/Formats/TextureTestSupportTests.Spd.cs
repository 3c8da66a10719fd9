using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>SpdTestWriter/SprTestWriter and their independent readers: layout, round trips, and corrupt input.</summary>
public sealed partial class TextureTestSupportTests
{
    private static byte[] TwoTextureSpd() => SpdTestWriter.Write(
        [
            new SpdTestWriter.Texture(1, DdsTestWriter.Write(TextureFormat.Dxt5, 64, 32, mipCount: 2, seed: 11), "tex_a"),
            new SpdTestWriter.Texture(7, DdsTestWriter.Write(TextureFormat.A8R8G8B8, 8, 8, seed: 12), "tex_b"),
        ],
        [
            new SpdTestWriter.Sprite(10, 1, 0, 0, 32, 16),
            new SpdTestWriter.Sprite(11, 1, 32, 16, 32, 16),
            new SpdTestWriter.Sprite(20, 7, 1, 2, 3, 4),
        ]);

    [Test]
    public void Spd_Written_HasTheHeaderAndTablesWhereTheDescriptionsPutThem()
    {
        var spd = TwoTextureSpd();

        Assert.That(Ascii(spd, 0, 4), Is.EqualTo("SPR0"));
        Assert.That(U32(spd, 0x04), Is.EqualTo(2));
        Assert.That(U32(spd, 0x08), Is.EqualTo(spd.Length));
        Assert.That(U32(spd, 0x10), Is.EqualTo(0x20));
        Assert.That(BitConverter.ToUInt16(spd, 0x14), Is.EqualTo(2));
        Assert.That(BitConverter.ToUInt16(spd, 0x16), Is.EqualTo(3));
        Assert.That(U32(spd, 0x18), Is.EqualTo(0x20));
        Assert.That(U32(spd, 0x1C), Is.EqualTo(0x20 + 2 * 0x30));
        Assert.That(U32(spd, 0x20 + 0x08), Is.EqualTo(0x20 + 2 * 0x30 + 3 * 0xA0), "first DDS right after the sprite table");
        Assert.That(Ascii(spd, 0x20 + 2 * 0x30 + 3 * 0xA0, 4), Is.EqualTo("DDS "));
    }

    [Test]
    public void Spd_WrittenThenRead_GivesEveryTextureAndSpriteWithItsBytes()
    {
        var dds1 = DdsTestWriter.Write(TextureFormat.Dxt5, 64, 32, mipCount: 2, seed: 11);
        var read = SpdIndependentReader.Read(TwoTextureSpd());

        Assert.That(read.Textures.Select(t => (t.Id, t.Name, t.Width, t.Height, t.Image.Format)),
            Is.EqualTo(new[] { (1, "tex_a", 64, 32, TextureFormat.Dxt5), (7, "tex_b", 8, 8, TextureFormat.A8R8G8B8) }));
        Assert.That(read.Textures[0].Dds, Is.EqualTo(dds1));
        Assert.That(read.Textures[0].Image.Levels[1], Is.EqualTo(dds1[(128 + 2048)..]));
        Assert.That(read.Sprites.Select(s => (s.Id, s.TextureId, s.X, s.Y, s.Width, s.Height)),
            Is.EqualTo(new[] { (10, 1, 0, 0, 32, 16), (11, 1, 32, 16, 32, 16), (20, 7, 1, 2, 3, 4) }));
        Assert.That(Ascii(read.Sprites[2].Entry, 0x70, 9), Is.EqualTo("sprite 20"));
        Assert.That(read.Sprites[1].Entry, Is.EqualTo(SpdTestWriter.SpriteEntry(new SpdTestWriter.Sprite(11, 1, 32, 16, 32, 16))));
    }

    [Test]
    public void Spd_WithAWrongDeclaredFileSize_IsRejectedAtTheSizeField()
    {
        var spd = TwoTextureSpd();
        spd[0x08]++;
        AssertRejected(() => SpdIndependentReader.Read(spd), 0x08, "declared file size");
    }

    [Test]
    public void Spd_WhoseTextureEntrySizeDisagreesWithItsDds_IsRejectedAtTheEntry()
    {
        var spd = TwoTextureSpd();
        spd[0x20 + 0x30 + 0x10] = 9; // texture 7's width
        AssertRejected(() => SpdIndependentReader.Read(spd), 0x20 + 0x30 + 0x10, "its DDS 8x8");
    }

    [Test]
    public void Spd_WithASpriteOnAMissingTexture_IsRejectedAtTheSpritesTextureId()
    {
        var spd = TwoTextureSpd();
        int sprite = 0x20 + 2 * 0x30 + 2 * 0xA0;
        spd[sprite + 4] = 8;
        AssertRejected(() => SpdIndependentReader.Read(spd), sprite + 4, "texture 8");
    }

    [Test]
    public void Spd_WithTwoTexturesSharingBytes_IsRejectedAsOverlapping()
    {
        var spd = TwoTextureSpd();
        spd.AsSpan(0x20 + 4, 0x1C).CopyTo(spd.AsSpan(0x20 + 0x30 + 4)); // texture 7's entry now points at texture 1's DDS
        Assert.That(() => SpdIndependentReader.Read(spd), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("overlaps"));
    }

    private static byte[] TwoTextureSpr() => SprTestWriter.Write(
        [TmxTestWriter.Write(16, 8, seed: 21, comment: "first"), TmxTestWriter.Write(5, 3, seed: 22, comment: "second")],
        [new SprTestWriter.Sprite(0, 0, 0, 8, 8, "a"), new SprTestWriter.Sprite(1, 1, 1, 4, 2), new SprTestWriter.Sprite(0, 8, 0, 16, 8)]);

    [Test]
    public void Spr_WrittenThenRead_GivesEveryTmxAndSpriteWithTexturesSixteenAligned()
    {
        var spr = TwoTextureSpr();
        var read = SprIndependentReader.Read(spr);

        Assert.That(Ascii(spr, 8, 4), Is.EqualTo("SPR0"));
        Assert.That(U32(spr, 0x0C), Is.EqualTo(0x20));
        Assert.That(read.Textures.Select(t => (t.Tmx.Width, t.Tmx.Height, t.Tmx.Comment, t.Offset % 16)),
            Is.EqualTo(new[] { (16, 8, "first", 0L), (5, 3, "second", 0L) }));
        Assert.That(read.Textures[1].Tmx.Bytes, Is.EqualTo(TmxTestWriter.Write(5, 3, seed: 22, comment: "second")));
        Assert.That(read.Sprites.Select(s => (s.TextureIndex, s.X1, s.Y1, s.X2, s.Y2)),
            Is.EqualTo(new[] { (0, 0, 0, 8, 8), (1, 1, 1, 4, 2), (0, 8, 0, 16, 8) }));
        Assert.That(read.Sprites[0].Comment, Is.EqualTo("a"));
        Assert.That(read.Sprites[2].Entry, Is.EqualTo(SprTestWriter.SpriteEntry(new SprTestWriter.Sprite(0, 8, 0, 16, 8))));
    }

    // The two Atlus sprite files, each with its own independent reader.
    private static IEnumerable<TestCaseData> SpriteFiles() =>
    [
        new TestCaseData(TwoTextureSpd(), (Action<byte[]>)(b => SpdIndependentReader.Read(b))).SetArgDisplayNames("SPD"),
        new TestCaseData(TwoTextureSpr(), (Action<byte[]>)(b => SprIndependentReader.Read(b))).SetArgDisplayNames("SPR"),
    ];

    [TestCaseSource(nameof(SpriteFiles))]
    public void SpdAndSpr_TruncatedAnywhere_AreRejectedAsInvalidData(byte[] file, Action<byte[]> read) =>
        AssertEveryTruncationRejected(file, read);

    [Test]
    public void Spr_WithATexturePointerPastTheEnd_IsRejectedAtThatOffset()
    {
        var spr = TwoTextureSpr();
        BitConverter.GetBytes(spr.Length).CopyTo(spr, 0x20 + 8 + 4);
        AssertRejected(() => SprIndependentReader.Read(spr), spr.Length, "the TMX header");
    }

    [Test]
    public void Spr_WithASpriteOnATextureItDoesNotHold_IsRejectedAtTheTextureIndex()
    {
        var spr = TwoTextureSpr();
        int sprite = (int)U32(spr, 0x20 + 2 * 8 + 4);
        spr[sprite + 0x14] = 2;
        AssertRejected(() => SprIndependentReader.Read(spr), sprite + 0x14, "the SPR holds 2");
    }
}
