using System.Buffers.Binary;
using System.IO.Compression;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Hostile ZIP structures give one ArchiveFormatException whose whole message is pinned: the file, what is wrong and
/// where — never a crash, an out-of-range read or a huge allocation. The good base archive's bytes are checked against
/// the BCL's ZipArchive, which wrote it.
/// </summary>
public sealed class ZipCorruptInputTests
{
    private const int EndRecordSize = 22;

    private static readonly (string Name, Func<byte[], byte[]> Corrupt, string Problem)[] Cases =
    [
        ("truncated to half", b => b[..(b.Length / 2)], @"no ZIP end-of-central-directory record (PK\5\6) in the last 64 KiB (at offset 0x0)"),
        ("truncated to ten bytes", b => b[..10], "a 10-byte file is too short for a ZIP end-of-central-directory record (at offset 0x0)"),
        ("central directory offset past EOF", b => SetEnd(b, 16, 0x7FFF_0000),
            "central directory [2147418112, 2147418265) is outside the file before its end record at 608 (630-byte file) (at offset 0x270)"),
        ("central directory size past EOF", b => SetEnd(b, 12, 0x7FFF_0000),
            "central directory [455, 2147418567) is outside the file before its end record at 608 (630-byte file) (at offset 0x270)"),
        ("huge entry count", b => SetEnd16(SetEnd16(b, 8, 0xFFFE), 10, 0xFFFE), "entry count 65534 does not fit in the 153-byte central directory (at offset 0x26A)"),
        ("multi-disk archive", b => SetEnd16(b, 4, 1), "split or spanned (multi-disk) ZIP archives are not supported (at offset 0x264)"),
        ("central record without signature", b => SetCentral(b, 0, 0, 0x12345678), @"central directory record 0 of 3 is missing (no PK\1\2 signature) (at offset 0x1C7)"),
        ("local header with bad signature", b => Set(b, 0, 0x0403_4b51), @"'a.bin': no local header signature (PK\3\4) at 0 (at offset 0x0)"),
        ("local header offset past the central directory", b => SetCentral(b, 0, 42, 0x7FFF_0000),
            "'a.bin': local header offset 2147418112 is outside the entry area before the central directory at 455 (at offset 0x1F1)"),
        ("compressed size past the central directory", b => SetCentral(b, 1, 20, 0x7FFF_0000),
            "'b.bin': data [170, 2147418282) runs past the central directory at 455 (at offset 0x87)"),
        ("two entries sharing one local header", b => SetCentral(b, 1, 42, 0), "'a.bin' [0, 135) overlaps the next record at 0 (at offset 0x0)"),
        ("zip64 size without a zip64 extra field", b => SetCentral(b, 0, 20, uint.MaxValue),
            "'a.bin': sizes or offset are 0xFFFFFFFF but its zip64 extra field is missing or too short (at offset 0x1C7)"),
        ("zip64 locator pointing past EOF", b => WithLocator(b, 0x7FFF_0000),
            "zip64 end record offset 2147418112 is outside the file before its locator at 608 (at offset 0x268)"),
        ("zip64 locator pointing at no record", b => WithLocator(b, 0), @"no zip64 end-of-central-directory record (PK\6\6) where the zip64 locator points (at offset 0x0)"),
    ];

    public static IEnumerable<TestCaseData> CorruptFiles() =>
        Cases.Select(c => new TestCaseData(c.Name).SetName($"ReadIndex_{c.Name.Replace(' ', '_')}_ThrowsNamingTheFile"));

    [TestCaseSource(nameof(CorruptFiles))]
    public void ReadIndex_CorruptStructure_ThrowsArchiveFormatExceptionNamingTheFile(string name)
    {
        var (_, corrupt, problem) = Cases.Single(c => c.Name == name);
        using var dir = new TempDirectory("zip-bad");
        var path = dir.Write("bad.zip", corrupt(GoodZip()));
        Assert.That(() => ZipFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.EqualTo($"{path}: {problem}"));
    }

    [Test]
    public void ReadIndex_GoodBaseArchive_FindsEachEntrysBytesWhereTheBclWroteThem()
    {
        using var dir = new TempDirectory("zip-good");
        var good = GoodZip();
        var index = ZipFormat.Instance.ReadIndex(dir.Write("good.zip", good));
        using var bcl = new ZipArchive(new MemoryStream(good), ZipArchiveMode.Read);
        Assert.That(index.Entries.Select(e => e.Name), Is.EqualTo(bcl.Entries.Select(e => e.FullName)));
        foreach (var (entry, content) in index.Entries.Zip(Contents))
        {
            Assert.That(good.AsSpan((int)entry.Offset, (int)entry.Size).ToArray(), Is.EqualTo(content.Bytes), entry.Name);
            using var stream = bcl.GetEntry(entry.Name!)!.Open();
            var read = new MemoryStream();
            stream.CopyTo(read);
            Assert.That(read.ToArray(), Is.EqualTo(content.Bytes), $"{entry.Name}: the BCL reads the bytes it wrote");
        }
    }

    // Detection is by the local header signature (with room for a header and an end record) or, for a whole file, an
    // end record whose directory ends where it starts: a prefix of a zip is one from 30 + 22 bytes on, noise never.
    [Test]
    public void Detect_TruncatedZipAndNoise_AnswersByTheSignatureAndLength()
    {
        var good = GoodZip();
        for (int length = 0; length <= good.Length; length += 7)
            Assert.That(ZipFormat.Instance.Detect(good.AsSpan(0, length), length), Is.EqualTo(length >= 30 + EndRecordSize), $"{length}-byte prefix");
        for (int seed = 0; seed < 50; seed++)
        {
            var noise = TestData.Random(seed, seed * 3);
            Assert.That(ZipFormat.Instance.Detect(noise, noise.Length), Is.False, $"{noise.Length} bytes of noise");
        }
    }

    private static readonly (string Name, byte[] Bytes)[] Contents =
        [("a.bin", TestData.Random(100, 100)), ("b.bin", TestData.Random(200, 200)), ("c.bin", TestData.Random(50, 50))];

    /// <summary>Three stored entries written by the BCL's ZipArchive (no data descriptors, no comment).</summary>
    private static byte[] GoodZip()
    {
        var output = new MemoryStream();
        using (var zip = new ZipArchive(output, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var (name, bytes) in Contents)
            {
                using var entry = zip.CreateEntry(name, CompressionLevel.NoCompression).Open();
                entry.Write(bytes);
            }
        }
        return output.ToArray();
    }

    private static byte[] Set(byte[] bytes, int offset, uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset), value);
        return bytes;
    }

    private static byte[] SetEnd(byte[] bytes, int field, uint value) => Set(bytes, bytes.Length - EndRecordSize + field, value);

    private static byte[] SetEnd16(byte[] bytes, int field, ushort value)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(bytes.Length - EndRecordSize + field), value);
        return bytes;
    }

    /// <summary>Sets a field of the <paramref name="record"/>-th central record.</summary>
    private static byte[] SetCentral(byte[] bytes, int record, int field, uint value)
    {
        int at = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(bytes.Length - EndRecordSize + 16));
        for (int i = 0; i < record; i++)
            at += 46 + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(at + 28)) + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(at + 30))
                  + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(at + 32));
        return Set(bytes, at + field, value);
    }

    /// <summary>Puts a zip64 locator pointing at <paramref name="recordOffset"/> just before the end record.</summary>
    private static byte[] WithLocator(byte[] bytes, ulong recordOffset)
    {
        var locator = new byte[20];
        BinaryPrimitives.WriteUInt32LittleEndian(locator, 0x0706_4b50);
        BinaryPrimitives.WriteUInt64LittleEndian(locator.AsSpan(8), recordOffset);
        BinaryPrimitives.WriteUInt32LittleEndian(locator.AsSpan(16), 1);
        int end = bytes.Length - EndRecordSize;
        return [.. bytes[..end], .. locator, .. bytes[end..]];
    }
}
