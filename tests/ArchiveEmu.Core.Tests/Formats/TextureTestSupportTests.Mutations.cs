using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Seeded byte flips in valid files: every reader either reads the result or rejects it as InvalidDataException.</summary>
public sealed partial class TextureTestSupportTests
{
    private static IEnumerable<TestCaseData> Readers()
    {
        yield return Case("DDS", DdsTestWriter.Write(TextureFormat.Dxt5, 16, 8, mipCount: 5), b => DdsIndependentReader.Read(b));
        yield return Case("TMX", TmxTestWriter.Write(6, 4, comment: "x"), b => TmxIndependentReader.Read(b));
        yield return Case("SPD", TwoTextureSpd(), b => SpdIndependentReader.Read(b));
        yield return Case("SPR", TwoTextureSpr(), b => SprIndependentReader.Read(b));
        yield return Case("TXD", TxdTestWriter.Write([Glass, Plate, OldDxt3]), b => TxdIndependentReader.Read(b));
        var (img, dir) = ImgV1TestWriter.Write([("a.txd", new byte[3000]), ("b.dff", new byte[10]), ("c.col", [])]);
        yield return Case("IMG v1 .dir", dir, b => ImgV1IndependentReader.Read(img, b));

        static TestCaseData Case(string name, byte[] bytes, Action<byte[]> read) =>
            new TestCaseData(bytes, read).SetArgDisplayNames(name);
    }

    [TestCaseSource(nameof(Readers))]
    public void Reader_GivenAValidFileWithSeededByteFlips_ReadsItOrRejectsItAsInvalidData(byte[] valid, Action<byte[]> read)
    {
        read(valid);
        var random = new Random(2211);
        int rejected = 0;
        for (int round = 0; round < 400; round++)
        {
            var bytes = (byte[])valid.Clone();
            // Most flips land in headers and tables, where they matter: the first 256 bytes get most of them.
            for (int flips = random.Next(1, 4); flips > 0; flips--)
            {
                int at = random.Next(2) == 0 ? random.Next(Math.Min(256, bytes.Length)) : random.Next(bytes.Length);
                bytes[at] ^= (byte)random.Next(1, 256);
            }
            try
            {
                read(bytes);
            }
            catch (InvalidDataException)
            {
                rejected++;
            }
        }
        Assert.That(rejected, Is.GreaterThan(0), "no flip was ever rejected: the reader checks nothing");
    }
}
