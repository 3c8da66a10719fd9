using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The C# texture readers against the standard-library Python reader, a third opinion written apart from them.</summary>
public sealed partial class TextureTestSupportTests
{
    [Test]
    public void Txd_ThePythonReader_AgreesWithTheCSharpReaderOnEveryFieldAndLevel()
    {
        using var dir = new TempDirectory("texind");
        var txd = TxdTestWriter.Write([Body, Glass, Plate, OldDxt3, Opaque8, Opaque9]);
        var python = TextureIndependentScript.ReadTxd(dir.Write("vehicle.txd", txd));

        Assert.That(TextureIndependentScript.Compact(python), Is.EqualTo(TextureIndependentScript.Summary(TxdIndependentReader.Read(txd))));
        Assert.That(python.GetProperty("textures").GetArrayLength(), Is.EqualTo(6));
    }

    [Test]
    public void Spd_ThePythonReader_AgreesWithTheCSharpReaderOnEveryTextureAndSprite()
    {
        using var dir = new TempDirectory("texind");
        var spd = TwoTextureSpd();
        var python = TextureIndependentScript.ReadSpd(dir.Write("menu.spd", spd));

        Assert.That(TextureIndependentScript.Compact(python), Is.EqualTo(TextureIndependentScript.Summary(SpdIndependentReader.Read(spd))));
        Assert.That(python.GetProperty("sprites").GetArrayLength(), Is.EqualTo(3));
    }

    [Test]
    public void Txd_WithAWrongLevelSize_IsRejectedByThePythonReaderToo()
    {
        using var dir = new TempDirectory("texind");
        var txd = TxdTestWriter.Write([Body]);
        BitConverter.GetBytes(1023).CopyTo(txd, 52 + 88 + 4 + 4096);

        Assert.That(TextureIndependentScript.Rejects("txd", dir.Write("bad.txd", txd)), Is.True);
    }

    [Test]
    public void Spd_WithAWrongDeclaredFileSize_IsRejectedByThePythonReaderToo()
    {
        using var dir = new TempDirectory("texind");
        var spd = TwoTextureSpd();
        spd[0x08]++;

        Assert.That(TextureIndependentScript.Rejects("spd", dir.Write("bad.spd", spd)), Is.True);
    }
}
