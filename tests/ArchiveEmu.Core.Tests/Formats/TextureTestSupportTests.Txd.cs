using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>TxdTestWriter/ImgV1TestWriter and their independent readers: chunk layout, round trips, and corrupt input.</summary>
public sealed partial class TextureTestSupportTests
{
    private static readonly TxdTestWriter.Texture Body = TxdTestWriter.Texture.Create(9, "infernus92body128", "", TextureFormat.Dxt1, 128, 64, mipCount: 3, seed: 31);
    private static readonly TxdTestWriter.Texture Glass = TxdTestWriter.Texture.Create(9, "glass", "glassa", TextureFormat.Dxt5, 16, 16, mipCount: 5, seed: 32)
        with { FilterMode = 6, UAddressing = 3, VAddressing = 2 };
    private static readonly TxdTestWriter.Texture Plate = TxdTestWriter.Texture.Create(8, "plate", "", TextureFormat.A8R8G8B8, 8, 4, seed: 33);
    private static readonly TxdTestWriter.Texture OldDxt3 = TxdTestWriter.Texture.Create(8, "lights", "lightsa", TextureFormat.Dxt3, 8, 8, mipCount: 2, seed: 34);

    private static byte[] FourTextureTxd() => TxdTestWriter.Write([Body, Glass, Plate, OldDxt3], deviceId: 2);

    [Test]
    public void Txd_Written_HasTheChunkTreeAndNativeHeaderTheWikiDescribes()
    {
        var txd = TxdTestWriter.Write([Body]);
        long bodyLevels = 4096 + 1024 + 256;

        Assert.That(new[] { U32(txd, 0), U32(txd, 4), U32(txd, 8) }, Is.EqualTo(new uint[] { 0x16, (uint)txd.Length - 12, 0x1803FFFF }));
        Assert.That(new[] { U32(txd, 12), U32(txd, 16), U32(txd, 20) }, Is.EqualTo(new uint[] { 0x01, 4, 0x1803FFFF }));
        Assert.That(U32(txd, 24), Is.EqualTo(1 | 2 << 16), "count 1, device id 2");
        Assert.That(U32(txd, 28), Is.EqualTo(0x15));
        Assert.That(U32(txd, 40), Is.EqualTo(0x01));
        Assert.That(U32(txd, 44), Is.EqualTo(88 + 3 * 4 + bodyLevels), "native struct size");
        int s = 52;
        Assert.That(U32(txd, s), Is.EqualTo(9), "platform");
        Assert.That(U32(txd, s + 4), Is.EqualTo(0x1102), "linear filter, wrap/wrap");
        Assert.That(Ascii(txd, s + 8, 18), Is.EqualTo("infernus92body128\0"));
        Assert.That(U32(txd, s + 72), Is.EqualTo(0x8200), "565 with mipmaps");
        Assert.That(Ascii(txd, s + 76, 4), Is.EqualTo("DXT1"));
        Assert.That(new[] { txd[s + 80], txd[s + 81], txd[s + 82], txd[s + 83], txd[s + 84], txd[s + 85], txd[s + 86], txd[s + 87] },
            Is.EqualTo(new byte[] { 128, 0, 64, 0, 16, 3, 4, 0x08 }));
        Assert.That(U32(txd, s + 88), Is.EqualTo(4096), "level 0 size");
        Assert.That(txd.Length, Is.EqualTo(12 + 16 + 12 + 12 + 88 + 12 + bodyLevels + 12 + 12));
    }

    [Test]
    public void Txd_WrittenThenRead_GivesEveryTexturesFieldsAndLevels()
    {
        var read = TxdIndependentReader.Read(FourTextureTxd());

        Assert.That((read.DeviceId, read.LibraryId, read.TrailingZeroBytes), Is.EqualTo(((ushort)2, 0x1803FFFFu, 0L)));
        Assert.That(read.Textures.Select(t => (t.Platform, t.Name, t.Mask, t.Format, t.Width, t.Height, t.MipCount)),
            Is.EqualTo(new[]
            {
                (9, "infernus92body128", "", TextureFormat.Dxt1, 128, 64, 3), (9, "glass", "glassa", TextureFormat.Dxt5, 16, 16, 5),
                (8, "plate", "", TextureFormat.A8R8G8B8, 8, 4, 1), (8, "lights", "lightsa", TextureFormat.Dxt3, 8, 8, 2),
            }));
        Assert.That((read.Textures[1].FilterMode, read.Textures[1].UAddressing, read.Textures[1].VAddressing), Is.EqualTo(((byte)6, (byte)3, (byte)2)));
        Assert.That(read.Textures[1].CompressionOrFlags, Is.EqualTo(0x09), "D3D9: alpha | compressed");
        Assert.That((read.Textures[2].AlphaOrD3dFormat, read.Textures[2].CompressionOrFlags, read.Textures[2].RasterFormat), Is.EqualTo((1u, (byte)0, 0x500u)));
        Assert.That((read.Textures[3].AlphaOrD3dFormat, read.Textures[3].CompressionOrFlags, read.Textures[3].RasterFormat), Is.EqualTo((1u, (byte)3, 0x8300u)));
        Assert.That(read.Textures.Select(t => t.Levels), Is.EqualTo(new[] { Body.Levels, Glass.Levels, Plate.Levels, OldDxt3.Levels }));
        Assert.That(read.Textures.All(t => t.Extension.Length == 0));
    }

    [Test]
    public void Txd_PaddedWithZerosAsInAnImg_IsReadAndThePaddingCounted() =>
        Assert.That(TxdIndependentReader.Read([.. FourTextureTxd(), .. new byte[100]]).TrailingZeroBytes, Is.EqualTo(100));

    [Test]
    public void Txd_TruncatedAnywhere_IsRejectedAsInvalidData() =>
        AssertEveryTruncationRejected(TxdTestWriter.Write([Glass, Plate]), b => TxdIndependentReader.Read(b));

    [Test]
    public void Txd_WhoseRootSizeIsOneShort_IsRejectedWhereTheChunksStopAddingUp()
    {
        var txd = FourTextureTxd();
        BitConverter.GetBytes(U32(txd, 4) - 1).CopyTo(txd, 4);
        Assert.That(() => TxdIndependentReader.Read(txd), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("offset 0x"));
    }

    [Test]
    public void Txd_WithALevelSizeThatDisagreesWithTheDimensions_IsRejectedAtThatSize()
    {
        var txd = TxdTestWriter.Write([Body]);
        int level1 = 52 + 88 + 4 + 4096;
        BitConverter.GetBytes(1023).CopyTo(txd, level1);
        AssertRejected(() => TxdIndependentReader.Read(txd), level1, "level 1 declares 1023 bytes");
    }

    [Test]
    public void Txd_WhoseCountDisagreesWithItsNatives_IsRejectedAtTheCount()
    {
        var txd = FourTextureTxd();
        txd[24] = 3;
        AssertRejected(() => TxdIndependentReader.Read(txd), 24, "count 3");
    }

    [Test]
    public void Txd_WithANonZeroByteAfterTheDictionary_IsRejectedAtIt()
    {
        var txd = FourTextureTxd();
        AssertRejected(() => TxdIndependentReader.Read([.. txd, 0, 7]), txd.Length + 1, "non-zero bytes follow");
    }

    [Test]
    public void Txd_WithAD3d9FormatItDoesNotKnow_IsRejectedAtTheFormat()
    {
        var txd = TxdTestWriter.Write([Body]);
        "DXT2"u8.CopyTo(txd.AsSpan(52 + 76));
        AssertRejected(() => TxdIndependentReader.Read(txd), 52 + 76, "D3D format");
    }

    [Test]
    public void ImgV1_WrittenThenRead_GivesSectorAlignedEntriesWithTheirBytes()
    {
        var a = TestData.Random(41, 5000);
        var b = TestData.Random(42, 2048);
        var (img, dir) = ImgV1TestWriter.Write([("infernus.txd", a), ("infernus.dff", b), ("empty.col", [])]);

        Assert.That(dir, Has.Length.EqualTo(96));
        Assert.That(new[] { U32(dir, 0), U32(dir, 4), U32(dir, 32), U32(dir, 36), U32(dir, 64), U32(dir, 68) }, Is.EqualTo(new uint[] { 0, 3, 3, 1, 4, 0 }));
        Assert.That(img, Has.Length.EqualTo(4 * 2048));
        var read = ImgV1IndependentReader.Read(img, dir);
        Assert.That(read.Select(e => (e.Name, e.Sector, e.Sectors)), Is.EqualTo(new[] { ("infernus.txd", 0L, 3L), ("infernus.dff", 3L, 1L), ("empty.col", 4L, 0L) }));
        Assert.That(read[0].Bytes, Is.EqualTo(ImgTestWriter.Padded(a)));
        Assert.That(read[1].Bytes, Is.EqualTo(b));
    }

    [Test]
    public void ImgV1_WithAnEntryPastTheImgsEnd_IsRejectedAtItsRecord()
    {
        var (img, dir) = ImgV1TestWriter.Write([("a.txd", new byte[10]), ("b.txd", new byte[10])]);
        dir[36] = 2;
        AssertRejected(() => ImgV1IndependentReader.Read(img, dir), 32, "b.txd spans sectors 1..3");
    }

    [Test]
    public void ImgV1_WithOverlappingEntries_IsRejectedAtTheLaterRecord()
    {
        var (img, dir) = ImgV1TestWriter.Write([("a.txd", new byte[3000]), ("b.txd", new byte[10])]);
        dir[32] = 1;
        AssertRejected(() => ImgV1IndependentReader.Read(img, dir), 32, "b.txd overlaps a.txd");
    }

    [Test]
    public void ImgV1_WithANameFillingAllTwentyFourBytes_IsRejectedAtTheName()
    {
        var (img, dir) = ImgV1TestWriter.Write([("a.txd", new byte[10])]);
        "abcdefghijklmnopqrstuvwx"u8.CopyTo(dir.AsSpan(8));
        AssertRejected(() => ImgV1IndependentReader.Read(img, dir), 8, "no terminating NUL");
    }

    [Test]
    public void ImgV1_WithADirThatIsNotWholeRecords_IsRejected()
    {
        var (img, dir) = ImgV1TestWriter.Write([("a.txd", new byte[10])]);
        AssertRejected(() => ImgV1IndependentReader.Read(img, [.. dir, 0]), 32, "not a whole number of 32-byte records");
    }
}
