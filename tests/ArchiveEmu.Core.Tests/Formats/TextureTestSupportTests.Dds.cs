using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>DdsTestWriter and DdsIndependentReader: Microsoft's header field values, round trips, and corrupt input.</summary>
public sealed partial class TextureTestSupportTests
{
    [Test]
    public void Dds_Dxt1WithFullChain_HasTheDocumentedHeaderFields()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt1, 256, 256, mipCount: 9, seed: 3);

        Assert.That(Ascii(dds, 0, 4), Is.EqualTo("DDS "));
        Assert.That(U32(dds, 4), Is.EqualTo(124), "dwSize");
        Assert.That(U32(dds, 8), Is.EqualTo(0x000A1007), "CAPS|HEIGHT|WIDTH|PIXELFORMAT|MIPMAPCOUNT|LINEARSIZE");
        Assert.That(U32(dds, 12), Is.EqualTo(256), "dwHeight");
        Assert.That(U32(dds, 16), Is.EqualTo(256), "dwWidth");
        Assert.That(U32(dds, 20), Is.EqualTo(32768), "top-level linear size");
        Assert.That(U32(dds, 28), Is.EqualTo(9), "dwMipMapCount");
        Assert.That(U32(dds, 76), Is.EqualTo(32), "ddspf.dwSize");
        Assert.That(U32(dds, 80), Is.EqualTo(0x4), "DDPF_FOURCC");
        Assert.That(Ascii(dds, 84, 4), Is.EqualTo("DXT1"));
        Assert.That(U32(dds, 108), Is.EqualTo(0x401008), "TEXTURE|COMPLEX|MIPMAP");
        Assert.That(dds, Has.Length.EqualTo(128 + 32768 + 8192 + 2048 + 512 + 128 + 32 + 8 + 8 + 8));
    }

    [Test]
    public void Dds_A8R8G8B8_HasPitchAndTheFourChannelMasks()
    {
        var dds = DdsTestWriter.Write(TextureFormat.A8R8G8B8, 6, 3, seed: 4);

        Assert.That(U32(dds, 8), Is.EqualTo(0x100F), "CAPS|HEIGHT|WIDTH|PITCH|PIXELFORMAT");
        Assert.That(U32(dds, 20), Is.EqualTo(24), "pitch = width·4");
        Assert.That(U32(dds, 80), Is.EqualTo(0x41), "DDPF_RGB|DDPF_ALPHAPIXELS");
        Assert.That(new[] { U32(dds, 88), U32(dds, 92), U32(dds, 96), U32(dds, 100), U32(dds, 104) },
            Is.EqualTo(new uint[] { 32, 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000 }));
        Assert.That(U32(dds, 108), Is.EqualTo(0x1000), "DDSCAPS_TEXTURE only");
        Assert.That(dds, Has.Length.EqualTo(128 + 6 * 3 * 4));
    }

    [TestCase(TextureFormat.Dxt1, 64, 32, 7)]
    [TestCase(TextureFormat.Dxt3, 10, 6, 4)]
    [TestCase(TextureFormat.Dxt5, 128, 128, 3)]
    [TestCase(TextureFormat.A8R8G8B8, 16, 8, 5)]
    public void Dds_WrittenThenRead_GivesTheFormatSizeAndEveryLevelsBytes(TextureFormat format, int width, int height, int mips)
    {
        var levels = TextureLevels.Pixels(format, width, height, mips, seed: 7);
        var image = DdsIndependentReader.Read(DdsTestWriter.Write(format, width, height, levels));

        Assert.That((image.Format, image.Width, image.Height, image.MipCount), Is.EqualTo((format, width, height, mips)));
        Assert.That(image.Levels, Is.EqualTo(levels));
    }

    [Test]
    public void Dds_TruncatedAnywhere_IsRejectedAsInvalidData() =>
        AssertEveryTruncationRejected(DdsTestWriter.Write(TextureFormat.Dxt5, 8, 8, mipCount: 4), b => DdsIndependentReader.Read(b));

    [Test]
    public void Dds_WithATrailingByte_IsRejectedAtTheEndOfItsLevels()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, mipCount: 2);
        AssertRejected(() => DdsIndependentReader.Read([.. dds, 0]), dds.Length, "follow the last of 2 mip levels");
    }

    [Test]
    public void Dds_WithAnUnknownFourCc_IsRejectedAtTheFourCc()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8);
        "ATI2"u8.CopyTo(dds.AsSpan(84));
        AssertRejected(() => DdsIndependentReader.Read(dds), 84, "ATI2");
    }

    [Test]
    public void Dds_WithMoreMipsThanItsSizeAllows_IsRejectedAtTheMipCount()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, mipCount: 4);
        dds[28] = 5;
        AssertRejected(() => DdsIndependentReader.Read(dds), 28, "dwMipMapCount 5");
    }

    [Test]
    public void Dds_WithAWrongLinearSize_IsRejectedAtThePitchField()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt3, 8, 8);
        dds[20]++;
        AssertRejected(() => DdsIndependentReader.Read(dds), 20, "linear size");
    }

    [Test]
    public void Tmx_WrittenThenRead_GivesTheSizeCommentAndTheWholeFile()
    {
        var tmx = TmxTestWriter.Write(12, 5, seed: 9, comment: "face_01", userTextureId: 77);

        Assert.That(BitConverter.ToUInt16(tmx, 0), Is.EqualTo(2));
        Assert.That(U32(tmx, 4), Is.EqualTo(0x40 + 12 * 5 * 4));
        Assert.That(Ascii(tmx, 8, 4), Is.EqualTo("TMX0"));
        Assert.That(U32(tmx, 0x1C), Is.EqualTo(77));
        var read = TmxIndependentReader.Read(tmx);
        Assert.That((read.Width, read.Height, read.PixelFormat, read.PaletteCount, read.Comment), Is.EqualTo((12, 5, (byte)0, 0, "face_01")));
        Assert.That(read.Bytes, Is.EqualTo(tmx));
    }

    [Test]
    public void Tmx_WhoseDeclaredSizeDisagreesWithItsPixels_IsRejectedAtTheSizeField()
    {
        var tmx = TmxTestWriter.Write(4, 4);
        tmx[4] += 4;
        AssertRejected(() => TmxIndependentReader.Read([.. tmx, 0, 0, 0, 0]), 4, "not header + palette + pixels");
    }
}
