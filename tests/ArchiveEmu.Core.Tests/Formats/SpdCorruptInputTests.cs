using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile SPD headers and tables: one <see cref="ArchiveFormatException"/> naming the file and the offset, never a crash or a read outside the file.</summary>
public sealed class SpdCorruptInputTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spd-corrupt");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static void U16(byte[] b, int at, int v) => BinaryPrimitives.WriteUInt16LittleEndian(b.AsSpan(at), (ushort)v);
    private static void U32(byte[] b, int at, uint v) => BinaryPrimitives.WriteUInt32LittleEndian(b.AsSpan(at), v);

    // Texture table at 0x20 (3 × 0x30), sprite table at 0xB0 (6 × 0xA0).
    private static readonly (string Case, Action<byte[]> Break, string Problem)[] Breaks =
    [
        ("texture count past the end", b => U16(b, 0x14, 0xFFFF), "texture table"),
        ("sprite table offset past the end", b => U32(b, 0x1C, 0xFFFFFFF0), "sprite table"),
        ("texture data past the end", b => U32(b, 0x20 + 0x30 + 0x0C, 0x7FFFFFFF), "texture 1: data"),
        ("texture data offset past the end", b => U32(b, 0x20 + 0x08, 0xFFFFFFFF), "texture 0: data"),
        ("texture ID used twice", b => U32(b, 0x20 + 0x30 * 2, 1), "ID 1 is used twice"),
        ("negative texture ID", b => U32(b, 0x20, 0xFFFFFFFF), "ID -1 is negative"),
        ("sprite ID used twice", b => U32(b, 0xB0 + 0xA0 * 5, 0), "ID 0 is used twice"),
    ];

    private static IEnumerable<TestCaseData> Cases => Breaks.Select(b => new TestCaseData(b.Case).SetName($"ReadIndex_{b.Case.Replace(' ', '_')}_IsOneClearError"));

    [TestCaseSource(nameof(Cases))]
    public void ReadIndex_OfAHostileSpd_IsOneClearError(string name)
    {
        var (_, brk, problem) = Breaks.Single(b => b.Case == name);
        var bytes = SpdTests.Original();
        brk(bytes);
        var path = _dir.Write("bad.spd", bytes);
        Assert.That(() => SpdTests.SpdFormatUnderTest.ReadIndex(path), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(path).And.Message.Contains(problem).And.Message.Contains("at offset 0x"));
    }

    [Test]
    public void ReadIndex_OfAShortFileOrAnotherMagic_IsRefused_AndDetectionPassesThemBy()
    {
        var shortFile = _dir.Write("short.spd", "SPR0"u8.ToArray());
        var other = SpdTests.Original();
        other[3] = (byte)'1';
        var otherPath = _dir.Write("other.spd", other);
        Assert.That(() => SpdTests.SpdFormatUnderTest.ReadIndex(shortFile), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("too short"));
        Assert.That(() => SpdTests.SpdFormatUnderTest.ReadIndex(otherPath), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("no SPR0 magic"));
        Assert.That((SpdTests.SpdFormatUnderTest.Detect("SPR0"u8, 4), SpdTests.SpdFormatUnderTest.Detect(other, other.Length)), Is.EqualTo((false, false)));
    }
}
