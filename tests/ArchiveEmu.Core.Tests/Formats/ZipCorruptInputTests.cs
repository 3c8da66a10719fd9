using System.Buffers.Binary;
using System.IO.Compression;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile ZIP structures give one ArchiveFormatException naming the file, never a crash, an out-of-range read or a huge allocation.</summary>
public sealed class ZipCorruptInputTests
{
    private const int EndRecordSize = 22;

    private static readonly (string Name, Func<byte[], byte[]> Corrupt, string Problem)[] Cases =
    [
        ("truncated to half", b => b[..(b.Length / 2)], "no ZIP end-of-central-directory record"),
        ("truncated to ten bytes", b => b[..10], "too short"),
        ("central directory offset past EOF", b => SetEnd(b, 16, 0x7FFF_0000), "central directory"),
        ("central directory size past EOF", b => SetEnd(b, 12, 0x7FFF_0000), "outside"),
        ("huge entry count", b => SetEnd16(SetEnd16(b, 8, 0xFFFE), 10, 0xFFFE), "does not fit"),
        ("multi-disk archive", b => SetEnd16(b, 4, 1), "not supported"),
        ("central record without signature", b => SetCentral(b, 0, 0, 0x12345678), "no PK\\1\\2"),
        ("local header with bad signature", b => Set(b, 0, 0x0403_4b51), "no local header signature"),
        ("local header offset past the central directory", b => SetCentral(b, 0, 42, 0x7FFF_0000), "outside the entry area"),
        ("compressed size past the central directory", b => SetCentral(b, 1, 20, 0x7FFF_0000), "runs past the central directory"),
        ("two entries sharing one local header", b => SetCentral(b, 1, 42, 0), "overlaps"),
        ("zip64 size without a zip64 extra field", b => SetCentral(b, 0, 20, uint.MaxValue), "zip64 extra field is missing"),
        ("zip64 locator pointing past EOF", b => WithLocator(b, 0x7FFF_0000), "zip64 end record offset"),
        ("zip64 locator pointing at no record", b => WithLocator(b, 0), "no zip64 end-of-central-directory record"),
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
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(path).And.Message.Contains(problem));
    }

    [Test]
    public void ReadIndex_GoodBaseArchive_Reads()
    {
        using var dir = new TempDirectory("zip-good");
        var index = ZipFormat.Instance.ReadIndex(dir.Write("good.zip", GoodZip()));
        Assert.That(index.Entries.Select(e => e.Name), Is.EqualTo(new[] { "a.bin", "b.bin", "c.bin" }));
    }

    [Test]
    public void Detect_RandomAndTruncatedInput_NeverThrows()
    {
        var good = GoodZip();
        for (int length = 0; length <= good.Length; length += 7)
            Assert.That(() => ZipFormat.Instance.Detect(good.AsSpan(0, length), length), Throws.Nothing);
        for (int seed = 0; seed < 50; seed++)
        {
            var noise = TestData.Random(seed, seed * 3);
            Assert.That(() => ZipFormat.Instance.Detect(noise, noise.Length), Throws.Nothing);
        }
    }

    /// <summary>Three stored entries written by the BCL's ZipArchive (no data descriptors, no comment).</summary>
    private static byte[] GoodZip()
    {
        var output = new MemoryStream();
        using (var zip = new ZipArchive(output, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var (name, length) in new[] { ("a.bin", 100), ("b.bin", 200), ("c.bin", 50) })
            {
                using var entry = zip.CreateEntry(name, CompressionLevel.NoCompression).Open();
                entry.Write(TestData.Random(length, length));
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
