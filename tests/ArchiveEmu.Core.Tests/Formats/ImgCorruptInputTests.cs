using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile IMG directories give one ArchiveFormatException naming the file, never a crash or a huge allocation.</summary>
public sealed class ImgCorruptInputTests
{
    // The original: 3 records at 8, 40, 72 ({u32 sector, u16 sectors, u16 0, name[24]}), data from sector 1.
    private static readonly (string Name, Func<byte[], byte[]> Corrupt, string Problem)[] Cases =
    [
        ("truncated header", b => b[..6], "too short"),
        ("truncated directory", b => b[..50], "does not fit"),
        ("huge count", b => Set32(b, 4, 0xFFFF_FFF0), "does not fit"),
        ("offset past EOF", b => Set32(b, 40, 0x00FF_0000), "outside"),
        ("size past EOF", b => Set16(b, 44, 0xFFFF), "outside"),
        ("entry inside the directory", b => Set32(b, 8, 0), "inside the directory"),
        ("overlapping entries", b => Set32(b, 40, BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(8))), "overlaps"),
        ("name without NUL", b => { b.AsSpan(16, 24).Fill((byte)'a'); return b; }, "name"),
        ("empty name", b => { b.AsSpan(16, 24).Clear(); return b; }, "name"),
    ];

    public static IEnumerable<TestCaseData> CorruptFiles() => Cases.Select(c => new TestCaseData(c.Name).SetName($"ReadIndex_{c.Name.Replace(' ', '_')}_ThrowsNamingTheFile"));

    [TestCaseSource(nameof(CorruptFiles))]
    public void ReadIndex_CorruptDirectory_ThrowsArchiveFormatExceptionNamingTheFile(string name)
    {
        var (_, corrupt, problem) = Cases.Single(c => c.Name == name);
        using var dir = new TempDirectory("img-bad");
        var good = ImgTestWriter.Write(ImgTests.Entries(3, 1));
        var path = dir.Write("bad.img", corrupt(good.ToArray()));
        Assert.That(() => ImgFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("bad.img").And.Message.Contains(problem));
    }

    private static byte[] Set32(byte[] bytes, int offset, uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset), value);
        return bytes;
    }

    private static byte[] Set16(byte[] bytes, int offset, ushort value)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(offset), value);
        return bytes;
    }
}
