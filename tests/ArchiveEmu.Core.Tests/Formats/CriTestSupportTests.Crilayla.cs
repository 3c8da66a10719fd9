using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The test CRILAYLA encoder against the independent script's decoder, alone and inside CPKs.</summary>
public sealed partial class CriTestSupportTests
{
    private static IEnumerable<TestCaseData> Contents()
    {
        yield return new TestCaseData(TestData.Random(50, 0x100)).SetArgDisplayNames("exactly the prefix");
        yield return new TestCaseData(TestData.Random(51, 0x101)).SetArgDisplayNames("prefix + 1");
        yield return new TestCaseData(TestData.Random(52, 0x104)).SetArgDisplayNames("prefix + 4");
        yield return new TestCaseData(TestData.Random(53, 0x10000)).SetArgDisplayNames("random 64 KiB");
        yield return new TestCaseData(Text(200_000)).SetArgDisplayNames("text 200 KB");
        yield return new TestCaseData(Texture(512)).SetArgDisplayNames("texture 1 MiB");
        yield return new TestCaseData(new byte[0x100000]).SetArgDisplayNames("zeros 1 MiB");
        yield return new TestCaseData(BoundaryLengths()).SetArgDisplayNames("matches at the length-field boundaries");
    }

    [TestCaseSource(nameof(Contents))]
    public void Crilayla_EncodedContent_DecodesWithTheIndependentDecoderToTheExactInput(byte[] content)
    {
        var stream = CrilaylaTestEncoder.Encode(content);

        Assert.That(Encoding.ASCII.GetString(stream, 0, 8), Is.EqualTo("CRILAYLA"));
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(stream.AsSpan(8)), Is.EqualTo(content.Length - 0x100));
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(stream.AsSpan(12)), Is.EqualTo(stream.Length - 0x110));
        Assert.That(stream.AsSpan(stream.Length - 0x100).ToArray(), Is.EqualTo(content.AsSpan(0, 0x100).ToArray()), "the prefix is stored last, as is");
        Assert.That(CrilaylaIndependentDecoder.Decode(stream), Is.EqualTo(content));
    }

    [Test]
    public void Crilayla_TextAndTextureLikeData_CompressNoticeably()
    {
        var text = Text(200_000);
        var texture = Texture(256);

        Assert.That(CrilaylaTestEncoder.Encode(text).Length, Is.LessThan(text.Length * 0.3));
        Assert.That(CrilaylaTestEncoder.Encode(texture).Length, Is.LessThan(texture.Length * 0.7));
        Assert.That(CrilaylaTestEncoder.Encode(new byte[0x100000]).Length, Is.LessThan(0x100000 / 100), "a long match costs a byte per 255 of its length");
    }

    [Test]
    public void Crilayla_ContentShorterThanThePrefix_IsRefusedSayingWhy()
    {
        Assert.That(() => CrilaylaTestEncoder.Encode(new byte[0xFF]),
            Throws.ArgumentException.With.Message.Contains("first 0x100 are stored as is"));
        Assert.That(() => CrilaylaTestEncoder.Encode([]), Throws.ArgumentException);
    }

    [Test]
    public void Crilayla_StreamClaimingMoreContentThanItsBitsHold_IsRejectedByTheDecoder()
    {
        var stream = CrilaylaTestEncoder.Encode(Text(5000));
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(8), BinaryPrimitives.ReadUInt32LittleEndian(stream.AsSpan(8)) + 4000);

        Assert.That(CrilaylaIndependentDecoder.TryDecode(stream).Rejection ?? "(accepted)", Does.Contain("CRILAYLA stream runs out of bits"));
    }

    [Test]
    public void Crilayla_StreamClaimingFourGigabytes_IsRejectedBeforeAnythingIsAllocated()
    {
        var stream = CrilaylaTestEncoder.Encode(Text(5000));
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(8), 0xFFFFFF00);

        Assert.That(CrilaylaIndependentDecoder.TryDecode(stream).Rejection ?? "(accepted)", Does.Contain("content size 0xffffff00 cannot come from"));
    }

    [Test]
    public void CompressedEntries_NamedAndIdOnly_DecodeToTheirContentAndIncompressibleOnesStayRaw()
    {
        var text = Text(30_000);
        var texture = Texture(128);
        var random = TestData.Random(60, 5000);
        var named = CpkIndependentReader.Read(_dir.Write("c.cpk", CpkTestWriter.WriteNamed(
        [
            new("a", "text.txt", text, Compress: true),
            new("a", "random.bin", random, Compress: true),
            new("b", "tex.dds", texture, Compress: true),
            new("b", "tiny.bin", [1, 2, 3], Compress: true),
        ], new CpkTestWriter.Options(Masked: true))));
        var ids = CpkIndependentReader.Read(_dir.Write("ci.cpk", CpkTestWriter.WriteIdOnly(
            [new(3, text, Compress: true), new(4, random, Compress: true), new(5, Texture(160), Compress: true)])));

        Assert.That(named.Entries.Select(e => e.Compressed), Is.EqualTo(new[] { true, false, true, false }));
        Assert.That(ids.Entries.Select(e => e.Compressed), Is.EqualTo(new[] { true, false, true }));
        Assert.That(ids.Entries[2].ExtractSize, Is.GreaterThan(0xFFFF), "lands in DataH by its size");
        Assert.That(named.Entries[0].FileSize, Is.LessThan(named.Entries[0].ExtractSize));
        Assert.That(named.Entries[0].StoredSha256, Is.EqualTo(Sha256(CrilaylaTestEncoder.Encode(text))));
        Assert.That(named.Entries.Select(e => e.ContentSha256), Is.EqualTo(new[] { text, random, texture, new byte[] { 1, 2, 3 } }.Select(Sha256)));
        Assert.That(named.HeaderNumber("EnabledPackedSize"), Is.EqualTo(named.Entries.Sum(e => e.FileSize)));
        Assert.That(named.HeaderNumber("EnabledDataSize"), Is.EqualTo(text.Length + random.Length + texture.Length + 3));
    }

    [Test]
    public void Reader_CompressedEntryWithTheWrongExtractSize_IsRejected()
    {
        var bytes = CpkTestWriter.WriteNamed([new("d", "a.txt", Text(9000), Compress: true), new("d", "b.txt", Text(4000), Compress: true)]);
        PatchTocRow(bytes, row: 1, at: 8, value: 4001, width: 4); // ExtractSize
        var result = CpkIndependentReader.TryRead(_dir.Write("size.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("entry 1 (d/b.txt").And.Contain("CRILAYLA stream holds 0x100 + 0xea0 = 0xfa0 bytes, ExtractSize is 0xfa1"));
    }

    [Test]
    public void Reader_CompressedEntryWhoseStreamSizeDisagreesWithFileSize_IsRejected()
    {
        var bytes = CpkTestWriter.WriteNamed([new("d", "a.txt", Text(9000), Compress: true), new("d", "b.txt", Text(10))]);
        long offset = 0x800 + (long)BinaryPrimitives.ReadUInt64BigEndian(TocRow(bytes, 0).AsSpan(12));
        var span = bytes.AsSpan((int)offset + 12);
        BinaryPrimitives.WriteUInt32LittleEndian(span, BinaryPrimitives.ReadUInt32LittleEndian(span) - 8);
        var result = CpkIndependentReader.TryRead(_dir.Write("stream.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("entry 0 (d/a.txt").And.Contain("+ 0x110 is not the stored size"));
    }

    // English-like text: words from a small vocabulary in a seeded order.
    private static byte[] Text(int length)
    {
        string[] words = ["the", "archive", "emulator", "serves", "modded", "files", "from", "a", "CPK", "without", "copying", "bytes", "and", "every", "entry", "is", "checked"];
        var random = new Random(70);
        var text = new StringBuilder();
        while (text.Length < length)
            text.Append(words[random.Next(words.Length)]).Append(random.Next(12) == 0 ? ".\n" : " ");
        return Encoding.ASCII.GetBytes(text.ToString(0, length));
    }

    // An RGBA image of a 32-pixel tiled gradient with a little noise, like an uncompressed floor texture.
    private static byte[] Texture(int side)
    {
        var random = new Random(71);
        var pixels = new byte[side * side * 4];
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++)
            {
                int i = (y * side + x) * 4;
                pixels[i] = (byte)(x % 32 * 8);
                pixels[i + 1] = (byte)(y % 32 * 8);
                pixels[i + 2] = (byte)(random.Next(50) == 0 ? random.Next(256) : 128);
                pixels[i + 3] = 255;
            }
        return pixels;
    }

    // Repeats of random runs whose lengths sit on either side of each length field's limit (3+3, 3+3+7, ...).
    private static byte[] BoundaryLengths()
    {
        var output = new MemoryStream();
        output.Write(TestData.Random(72, 0x100));
        int seed = 73;
        foreach (int length in new[] { 3, 4, 5, 6, 7, 12, 13, 14, 43, 44, 45, 298, 299, 300, 553, 554, 555, 9000 })
        {
            var run = TestData.Random(seed++, length);
            output.Write(run);
            output.Write(TestData.Random(seed++, 5));
            output.Write(run);
            output.Write(TestData.Random(seed++, 5));
        }
        return output.ToArray();
    }
}
