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

    private byte[] Serve(string route)
    {
        var game = EmulatedGame.Resolve(_dir["game"], [_dir["mod"]]);
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }
}
