using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile AWB headers give one ArchiveFormatException naming the file, never a crash or a huge allocation.</summary>
public sealed class AwbCorruptInputTests
{
    // The original: 3 entries, 2-byte ids, 4-byte positions; the position table starts at 0x16.
    private const int Positions = 0x10 + 3 * 2;

    private static readonly (string Name, Func<byte[], byte[]> Corrupt, string Problem)[] Cases =
    [
        ("truncated header", b => b[..12], "too short"),
        ("truncated table", b => b[..(Positions + 6)], "does not fit"),
        ("huge count", b => Set(b, 8, 0xFFFF_FFF0), "does not fit"),
        ("bad position width", b => { b[5] = 3; return b; }, "position width"),
        ("bad id width", b => { b[6] = 8; return b; }, "id width"),
        ("position past EOF", b => Set(b, Positions + 8, 0x7FFF_0000), "past the end"),
        ("last position past EOF", b => Set(b, Positions + 12, (uint)b.Length + 1), "past the end"),
        ("non-monotonic positions", b => Set(b, Positions + 8, BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(Positions + 4)) - 1), "must not decrease"),
        ("first position inside the header", b => Set(b, Positions, 4), "inside"),
    ];

    public static IEnumerable<TestCaseData> CorruptFiles() => Cases.Select(c => new TestCaseData(c.Name).SetName($"ReadIndex_{c.Name.Replace(' ', '_')}_ThrowsNamingTheFile"));

    [TestCaseSource(nameof(CorruptFiles))]
    public void ReadIndex_CorruptHeader_ThrowsArchiveFormatExceptionNamingTheFile(string name)
    {
        var (_, corrupt, problem) = Cases.Single(c => c.Name == name);
        using var dir = new TempDirectory("awb-bad");
        var good = AwbTestWriter.Write(AwbTests.Entries(3, 1));
        var path = dir.Write("bad.awb", corrupt(good.ToArray()));
        Assert.That(() => AwbFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("bad.awb").And.Message.Contains(problem));
    }

    private static byte[] Set(byte[] bytes, int offset, uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset), value);
        return bytes;
    }
}
