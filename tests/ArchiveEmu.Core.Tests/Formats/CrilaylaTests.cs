using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The CRILAYLA decoder against streams from the reference encoder written in the tests (real matches of every length
/// class), hand-made tiny streams whose bits are spelled out here, and damaged ones: each damage one clear error.
/// </summary>
public sealed class CrilaylaTests
{
    private static byte[] Text(string s) => Encoding.ASCII.GetBytes(s);

    private static IEnumerable<TestCaseData> Contents()
    {
        yield return new TestCaseData(TestData.Random(1, 0x100), 4096).SetName("OnlyTheRawPrefix");
        yield return new TestCaseData(TestData.Random(2, 5000), 4096).SetName("RandomBytes_AllLiterals");
        yield return new TestCaseData(DotNetArchiveWriters.Repeat(Text("the quick brown fox jumps "), 800), 4096).SetName("RepeatedText");
        yield return new TestCaseData(new byte[70_000], 70_000).SetName("Zeros_OneLongOverlappingCopy");
        yield return new TestCaseData(Mixed(), 40).SetName("Mixed_ShortMatchesOfEveryLengthClass");
        yield return new TestCaseData(Mixed(), 300).SetName("Mixed_MatchesAcrossTheRingBuffer");
    }

    /// <summary>Random runs and repeats at distances up to the window's edge: 3, 8194 and in between.</summary>
    private static byte[] Mixed()
    {
        var random = new Random(7);
        var bytes = new List<byte>(TestData.Random(3, 0x300));
        while (bytes.Count < 200_000)
        {
            int distance = random.Next(4) switch { 0 => 3, 1 => 8194, 2 => random.Next(3, 8195), _ => 0 };
            int length = random.Next(1, 600);
            for (int k = 0; k < length; k++)
                bytes.Add(distance == 0 || distance > bytes.Count ? (byte)random.Next(256) : bytes[^distance]);
        }
        return [.. bytes];
    }

    [TestCaseSource(nameof(Contents))]
    public void Decode_OfTheReferenceEncodersStream_GivesTheContentBack(byte[] content, int maxMatch)
    {
        var stream = CrilaylaReferenceEncoder.Encode(content, maxMatch);
        Assert.That(Crilayla.Decode(stream, "test.bin"), Is.EqualTo(content));
    }

    [Test]
    public void TheReferenceEncoder_FindsMatches()
    {
        var content = DotNetArchiveWriters.Repeat(Text("the quick brown fox jumps "), 800);
        Assert.That(CrilaylaReferenceEncoder.Encode(content).Length, Is.LessThan(content.Length / 20));
    }

    [Test]
    public void Decode_ToAFile_WritesTheContentThroughTheWindow()
    {
        using var dir = new TempDirectory("crilayla");
        var content = Mixed();
        var stream = CrilaylaReferenceEncoder.Encode(content, 300);
        var path = dir.Write("outer.bin", [.. new byte[77], .. stream, .. new byte[5]]);
        var output = dir["decoded.bin"];
        using (var destination = File.OpenHandle(output, FileMode.CreateNew, FileAccess.ReadWrite))
            Crilayla.Instance.Decode(new ArchiveSource(path, 77, stream.Length, ArchiveEmu.Core.VirtualFiles.FileIdentity.Of(path)), content.Length, destination);
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(content));
    }

    /// <summary>
    /// A stream made by hand: content = 0x100 raw bytes then "ABCABCAB". Decoded from the end: literal 'B', literal 'A',
    /// literal 'C', then a copy of 5 bytes from 3 ahead ("BCABC" backwards fills "ABCAB").
    /// </summary>
    [Test]
    public void Decode_OfAHandMadeStream_FollowsTheBitsAsDescribed()
    {
        // bits: 0 01000010 | 0 01000001 | 0 01000011 | 1 0000000000000 10 (length 3+2) — 43 bits, padded to 6 bytes
        var bitString = "0" + "01000010" + "0" + "01000001" + "0" + "01000011" + "1" + "0000000000000" + "10";
        var stream = HandMade(bitString, Text("ABCABCAB"));
        var expected = new byte[0x108];
        TestData.Random(9, 0x100).CopyTo(expected, 0);
        Text("ABCABCAB").CopyTo(expected, 0x100);
        Assert.That(Crilayla.Decode(stream, "hand.bin"), Is.EqualTo(expected));
    }

    [Test]
    public void ALengthOfThreeOnes_ReadsTheNextField_AndAnAllOnesByteReadsAnother()
    {
        // one literal 'x' at the end, then a copy from 3 ahead of 3+3+7+31+255+0 = 299 bytes: the fields 11, 111, 11111, 11111111, 00000000
        var bitString = "0" + "01111000" + "0" + "01111001" + "0" + "01111010" + "1" + "0000000000000" + "11" + "111" + "11111" + "11111111" + "00000000";
        var tail = new byte[302];
        for (int k = 0; k < tail.Length; k++)
            tail[k] = (byte)"xyz"[(tail.Length - 1 - k) % 3]; // x, y, z from the end, then repeated
        var stream = HandMade(bitString, tail);
        Assert.That(Crilayla.Decode(stream, "hand.bin").AsSpan(0x100).ToArray(), Is.EqualTo(tail));
    }

    [Test]
    public void AStreamThatRunsOut_IsOneErrorSayingItWouldReadBeforeItsStart()
    {
        var stream = HandMade("0" + "01000010", new byte[2]); // says 2 bytes, holds one literal
        Assert.That(() => Crilayla.Decode(stream, "short.bin"), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("short.bin").And.Message.Contains("before its start"));
    }

    [Test]
    public void ABackReferencePastTheContentsEnd_IsOneError()
    {
        var stream = HandMade("0" + "01000010" + "1" + "0000000000000" + "00", new byte[4]); // a copy from 3 ahead when 1 byte is there
        Assert.That(() => Crilayla.Decode(stream, "far.bin"), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("far.bin").And.Message.Contains("reaches past the end of the content"));
    }

    [Test]
    public void ABackReferenceIntoTheRawPrefix_IsOneError()
    {
        var stream = HandMade("0" + "01000010" + "0" + "01000010" + "0" + "01000010" + "1" + "0000000000000" + "01", new byte[6]); // 4 bytes where 3 are left
        Assert.That(() => Crilayla.Decode(stream, "long.bin"), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("long.bin").And.Message.Contains("runs into the raw prefix"));
    }

    [TestCase(0, "CRILAYLA magic")]
    [TestCase(12, "raw prefix at")]
    [TestCase(8, "more than")]
    public void ADamagedHeader_IsOneErrorAtItsOffset(int field, string expected)
    {
        var stream = CrilaylaReferenceEncoder.Encode(TestData.Random(4, 600));
        if (field == 0)
            stream[3] ^= 0x20;
        else
            BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(field), field == 12 ? (uint)stream.Length : 0xFFFF_FF00u); // 4 GiB claimed by a tiny stream: no allocation
        Assert.That(() => Crilayla.Decode(stream, "bad.bin"), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("bad.bin").And.Message.Contains(expected).And.Property(nameof(ArchiveFormatException.Offset)).EqualTo((long)field));
    }

    [Test]
    public void BytesAfterTheRawPrefix_AreIgnored_AsThePublishedDecodersDo()
    {
        var content = TestData.Random(5, 4000);
        var padded = CrilaylaReferenceEncoder.Encode(content).Concat(new byte[0x20]).ToArray();
        Assert.That(Crilayla.Decode(padded, "padded.bin"), Is.EqualTo(content));
    }

    [Test]
    public void AStreamShorterThanItsHeader_IsOneError()
    {
        Assert.That(() => Crilayla.Decode("CRILAYLA"u8.ToArray(), "tiny.bin"), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("shorter than"));
    }

    [Test]
    public void AContentSizeOtherThanTheArchiveRecords_IsOneError()
    {
        using var dir = new TempDirectory("crilayla");
        var stream = CrilaylaReferenceEncoder.Encode(TestData.Random(5, 1000));
        var path = dir.Write("a.bin", stream);
        using var destination = File.OpenHandle(dir["out.bin"], FileMode.CreateNew, FileAccess.ReadWrite);
        Assert.That(() => Crilayla.Instance.Decode(ArchiveSource.File(path), 999, destination), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(path).And.Message.Contains("archive records 999"));
    }

    [Test]
    public void EveryFlippedByte_DecodesOrIsAnArchiveFormatException()
    {
        var content = Mixed().AsSpan(0, 20_000).ToArray();
        var stream = CrilaylaReferenceEncoder.Encode(content, 200);
        var random = new Random(11);
        for (int round = 0; round < 300; round++)
        {
            var damaged = (byte[])stream.Clone();
            damaged[random.Next(damaged.Length)] ^= (byte)random.Next(1, 256);
            try
            {
                Assert.That(Crilayla.Decode(damaged, "fuzz.bin"), Has.Length.EqualTo(content.Length));
            }
            catch (ArchiveFormatException)
            {
            }
        }
    }

    /// <summary>A stream whose compressed part is <paramref name="bitString"/> (read first is written first) and whose raw prefix is TestData 9.</summary>
    private static byte[] HandMade(string bitString, byte[] tail)
    {
        var padded = bitString.PadRight((bitString.Length + 7) / 8 * 8, '0');
        var compressed = Enumerable.Range(0, padded.Length / 8).Select(k => Convert.ToByte(padded.Substring(k * 8, 8), 2)).Reverse().ToArray();
        var stream = new byte[0x10 + compressed.Length + 0x100];
        "CRILAYLA"u8.CopyTo(stream);
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(8), (uint)tail.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(stream.AsSpan(12), (uint)compressed.Length);
        compressed.CopyTo(stream, 0x10);
        TestData.Random(9, 0x100).CopyTo(stream, 0x10 + compressed.Length);
        return stream;
    }
}
