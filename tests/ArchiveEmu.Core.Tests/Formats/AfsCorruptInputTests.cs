using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Afs;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile AFS headers give one ArchiveFormatException naming the file, never a crash or a huge allocation.</summary>
public sealed class AfsCorruptInputTests
{
    private static readonly (string Name, Func<byte[], byte[]> Corrupt, string Problem)[] Cases =
    [
        ("truncated header", b => b[..12], "does not fit"),
        ("huge count", b => Set(b, 4, 0x00FF_FFFF), "does not fit"),
        ("offset past EOF", b => Set(b, 8, 0x7FFF_0000), "outside"),
        ("size past EOF", b => Set(b, 12, 0x7FFF_0000), "outside"),
        ("entry inside the header", b => Set(b, 8, 8), "outside"),
        ("overlapping entries", b => Set(b, 16, BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(8))), "overlaps"),
        ("name table past EOF", b => Set(b, 8 + 8 * 3, 0x7FFF_0000), "name table"),
    ];

    public static IEnumerable<TestCaseData> CorruptFiles() => Cases.Select(c => new TestCaseData(c.Name).SetName($"ReadIndex_{c.Name.Replace(' ', '_')}_ThrowsNamingTheFile"));

    [TestCaseSource(nameof(CorruptFiles))]
    public void ReadIndex_CorruptHeader_ThrowsArchiveFormatExceptionNamingTheFile(string name)
    {
        var (_, corrupt, problem) = Cases.Single(c => c.Name == name);
        using var dir = new TempDirectory("afs-bad");
        var good = AfsTestWriter.Write(AfsTests.Entries(3, 1));
        var path = dir.Write("bad.afs", corrupt(good.ToArray()));
        Assert.That(() => AfsFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("bad.afs").And.Message.Contains(problem));
    }

    private static byte[] Set(byte[] bytes, int offset, uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset), value);
        return bytes;
    }
}
