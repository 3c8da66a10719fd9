using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The texture test tools checked against each other and against fixed numbers from the public descriptions.</summary>
public sealed partial class TextureTestSupportTests
{
    private static uint U32(byte[] bytes, int offset) => BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset));

    private static string Ascii(byte[] bytes, int offset, int count) => Encoding.ASCII.GetString(bytes, offset, count);

    /// <summary>Asserts that reading <paramref name="bytes"/> is an InvalidDataException naming <paramref name="offset"/> and <paramref name="words"/>.</summary>
    private static void AssertRejected(Action read, long offset, string words)
    {
        var ex = Assert.Throws<InvalidDataException>(() => read());
        Assert.That(ex!.Message, Does.Contain($"offset 0x{offset:X}:"));
        Assert.That(ex.Message, Does.Contain(words));
    }

    /// <summary>Every shorter prefix of a valid file must be an InvalidDataException, never another exception.</summary>
    private static void AssertEveryTruncationRejected(byte[] bytes, Action<byte[]> read)
    {
        for (int length = 0; length < bytes.Length; length++)
        {
            var prefix = bytes[..length];
            Assert.Throws<InvalidDataException>(() => read(prefix), $"prefix of {length} bytes");
        }
    }

    [TestCase(TextureFormat.Dxt1, 1, 1, 0, 8)]
    [TestCase(TextureFormat.Dxt1, 256, 256, 0, 32768)]
    [TestCase(TextureFormat.Dxt1, 256, 256, 8, 8)]
    [TestCase(TextureFormat.Dxt3, 10, 6, 0, 96)]
    [TestCase(TextureFormat.Dxt5, 256, 256, 0, 65536)]
    [TestCase(TextureFormat.Dxt5, 10, 6, 1, 32)]
    [TestCase(TextureFormat.A8R8G8B8, 3, 5, 0, 60)]
    [TestCase(TextureFormat.A8R8G8B8, 64, 16, 5, 8)]
    public void LevelSize_MatchesTheBlockAndPixelArithmeticOfTheDdsDescription(TextureFormat format, int width, int height, int level, long size) =>
        Assert.That(TextureLevels.Size(format, width, height, level), Is.EqualTo(size));

    [TestCase(1, 1, 1)]
    [TestCase(256, 256, 9)]
    [TestCase(64, 16, 7)]
    [TestCase(10, 6, 4)]
    public void FullChain_CountsLevelsDownToOnePixel(int width, int height, int levels) =>
        Assert.That(TextureLevels.FullChain(width, height), Is.EqualTo(levels));
}
