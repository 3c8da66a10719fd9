using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>A TXD inside an IMG v2, reached by the nested route (docs/DESIGN.md, "Archives inside archives"): <c>models/gta3.img/infernus.txd/infernus_body.dds</c>.</summary>
public sealed class TxdRouteTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders() => _dir = new TempDirectory("txd-route");

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    [Test]
    public void TxdInImg_TheModsDdsReplacesOneTexture_TheImgAndTheOtherTexturesKeepTheirBytes()
    {
        var textures = new List<TxdTestWriter.Texture>
        {
            TxdTests.Texture(9, "infernus_body", TextureFormat.Dxt1, 64, 7, 1, mask: "infernus_bodya"),
            TxdTests.Texture(9, "infernus_glass", TextureFormat.Dxt5, 16, 5, 2),
        };
        var dff = TestData.Random(3, 5000);
        var other = TestData.Random(4, 900);
        _dir.Write("game/models/gta3.img", ImgTestWriter.Write([("infernus.dff", dff), ("infernus.txd", TxdTestWriter.Write(textures)), ("other.col", other)]));
        var dds = _dir.Write("mod/models/gta3.img/infernus.txd/infernus_body.dds", DdsTestWriter.Write(TextureFormat.Dxt5, 128, 128, mipCount: 8, seed: 9));

        var img = _dir.Write("out/gta3.img", Serve("models/gta3.img"));
        var entries = ImgIndependentReader.Read(img);
        Assert.That(entries.Select(e => e.Name), Is.EqualTo(new[] { "infernus.dff", "infernus.txd", "other.col" }));
        Assert.That(entries[0].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(ImgTestWriter.Padded(dff))));
        Assert.That(entries[2].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(ImgTestWriter.Padded(other))));

        var bytes = File.ReadAllBytes(img).AsSpan((int)entries[1].Sector * 2048, (int)entries[1].Sectors * 2048).ToArray();
        var txd = TxdIndependentReader.Read(bytes, "infernus.txd in the emulated gta3.img");
        var body = txd.Textures[0];
        Assert.That((body.Name, body.Mask, body.FilterMode, body.UAddressing, body.VAddressing), Is.EqualTo(("infernus_body", "infernus_bodya", (byte)6, (byte)3, (byte)2)));
        Assert.That((body.Format, body.Width, body.Height), Is.EqualTo((TextureFormat.Dxt5, 128, 128)));
        Assert.That(body.Levels, Is.EqualTo(DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels));
        Assert.That(txd.Textures[1].Levels, Is.EqualTo(textures[1].Levels));
        Assert.That(txd.Textures[1].Name, Is.EqualTo("infernus_glass"));
    }

    [Test]
    public void TxdFirstInAnImgV1_TheImgIsStillThePairNotATxd_AndTheDirFollowsTheNewLayout()
    {
        // GTA III's gta3.img has no magic: when its first entry is a TXD, the file begins like one. Its .dir makes it an
        // IMG v1 (a dictionary whose chunk ends long before the file does is not a whole TXD file).
        var textures = new List<TxdTestWriter.Texture>
        {
            TxdTests.Texture(8, "infernus_body", TextureFormat.Dxt1, 32, 5, 1, mask: ""),
            TxdTests.Texture(8, "infernus_wheel", TextureFormat.Dxt1, 16, 4, 2),
        };
        var dff = TestData.Random(13, 7000);
        Directory.CreateDirectory(_dir["game/models"]);
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", [("infernus.txd", TxdTestWriter.Write(textures, deviceId: 1, libraryId: 0x0C02FFFF)), ("infernus.dff", dff)]);
        var dds = _dir.Write("mod/models/gta3.img/infernus.txd/infernus_body.dds", DdsTestWriter.Write(TextureFormat.Dxt1, 64, 64, mipCount: 7, seed: 19));

        var img = _dir.Write("out/gta3.img", Serve("models/gta3.img"));
        _dir.Write("out/gta3.dir", Serve("models/gta3.dir"));
        var entries = ImgV1IndependentReader.ReadFiles(img);
        Assert.That(entries.Select(e => e.Name), Is.EqualTo(new[] { "infernus.txd", "infernus.dff" }));
        Assert.That(entries[1].Bytes.AsSpan(0, dff.Length).ToArray(), Is.EqualTo(dff));
        var txd = TxdIndependentReader.Read(entries[0].Bytes, "infernus.txd in the emulated gta3.img");
        Assert.That(txd.Textures[0].Levels, Is.EqualTo(DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels));
        Assert.That(txd.Textures[1].Levels, Is.EqualTo(textures[1].Levels));
    }

    [Test]
    public void AnImgV1HoldingOnlyATxd_IsThePair_ThoughItsBytesAreAWholeTxdFile()
    {
        var txd = TxdTestWriter.Write([TxdTests.Texture(8, "radar00", TextureFormat.Dxt1, 16, 1, 3)], deviceId: 1, libraryId: 0x0C02FFFF);
        Directory.CreateDirectory(_dir["game"]);
        var img = ImgV1TestWriter.WriteFiles(_dir["game"], "radar", [("radar00.txd", txd)]);
        Assert.That(Core.Formats.Txd.TxdFormat.Instance.Detect(File.ReadAllBytes(img), new FileInfo(img).Length), Is.True, "the premise");
        Assert.That(Core.Formats.ArchiveFormats.Detect(img), Is.SameAs(Core.Formats.Img.ImgV1Format.Instance));
    }

    private byte[] Serve(string route)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }
}
