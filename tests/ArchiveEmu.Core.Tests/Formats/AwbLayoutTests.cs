using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The AWB (AFS2) build rules of docs/FORMATS.md at their edges, read back by the independent reader (which also
/// requires zero padding): ids counting on from the largest and widened to 4 bytes past 65,535, refused past 2^32 − 1;
/// positions widened only when the end no longer fits; an empty original; runs of unchanged entries.
/// </summary>
public sealed class AwbLayoutTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("awb-layout");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private (AwbIndependentReader.Archive Read, EmulatedArchive Archive) Build(byte[] original, params (int Index, byte[]? Data)[] changes)
    {
        var path = _dir.Write($"original-{Guid.NewGuid():N}.awb", original);
        var format = ArchiveFormats.ByName("awb")!;
        var archive = format.Build(format.ReadIndex(path), new ArchivePatch(changes.Select(c =>
            new EntryChange(EntryKey.ByIndex(c.Index), c.Data is null ? null : EntryInput.FromBytes(c.Data), "mod")).ToArray()));
        return (AwbIndependentReader.Read(_dir.Write($"built-{Guid.NewGuid():N}.awb", AfsTests.Materialise(archive))), archive);
    }

    private static readonly byte[] A = TestData.Random(1, 0x31), B = TestData.Random(2, 0x45), C = TestData.Random(3, 0x10);

    [TestCase(65533u, 2)]
    [TestCase(65534u, 2)]
    [TestCase(65535u, 4)]
    public void Build_AnAddedEntry_TakesTheNextIdAndWidensIdsOnlyPast65535(uint largest, int idWidth)
    {
        var (read, archive) = Build(AwbTestWriter.Write([A, B], new(Ids: [3, largest])), (2, C));
        using (archive)
        {
            Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new long[] { 3, largest, largest + 1L }));
            Assert.That(read.IdWidth, Is.EqualTo(idWidth));
        }
    }

    [Test]
    public void Build_TheLastIdA4ByteFieldHolds_IsGiven_TheOneAfterIsRefused()
    {
        var (read, archive) = Build(AwbTestWriter.Write([A], new(IdWidth: 4, Ids: [uint.MaxValue - 1])), (1, C));
        using (archive)
            Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new long[] { uint.MaxValue - 1L, uint.MaxValue }));
    }

    [Test]
    public void Build_AnIdPast4GiB_IsRefused()
    {
        var path = _dir.Write("max.awb", AwbTestWriter.Write([A], new(IdWidth: 4, Ids: [uint.MaxValue])));
        var format = ArchiveFormats.ByName("awb")!;
        Assert.That(() => format.Build(format.ReadIndex(path), new ArchivePatch([new EntryChange(EntryKey.ByIndex(1), EntryInput.FromBytes(C), "mod")])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("entry 1 would need id 4294967296; AWB ids stop at 4294967295"));
    }

    [Test]
    public void Build_AnEmptyOriginal_NumbersAddedEntriesFromZero()
    {
        var (read, archive) = Build(AwbTestWriter.Write([]), (0, A), (1, B));
        using (archive)
            Assert.That(read.Entries.Select(e => (e.Id, e.Sha256)), Is.EqualTo(new[] { (0L, AfsIndependentReader.Sha256(A)), (1L, AfsIndependentReader.Sha256(B)) }));
    }

    [Test]
    public void Build_TwoBytePositions_WidenOnlyWhenTheEndPassesThem()
    {
        // One entry, replaced: the table keeps its size, so the entry may end at 0xFFFF, the last 2-byte position.
        var small = AwbTestWriter.Write([A], new(PositionWidth: 2));
        long fits = 0xFFFF - AwbIndependentReader.Read(_dir.Write("small.awb", small)).Entries[0].Offset;
        var (read, archive) = Build(small, (0, TestData.Random(5, (int)fits)));
        using (archive)
            Assert.That((read.PositionWidth, read.Entries[0].Offset + read.Entries[0].Size), Is.EqualTo((2, 0xFFFFL)));
        (read, archive) = Build(small, (0, TestData.Random(5, (int)fits + 1)));
        using (archive)
            Assert.That(read.PositionWidth, Is.EqualTo(4));
    }

    [Test]
    public void Build_UnchangedRunsAroundAChange_KeepZeroPaddingAndTheirBytes()
    {
        var (read, archive) = Build(AwbTestWriter.Write([A, B, A, B, C]), (2, C));
        using (archive)
            Assert.That(read.Entries.Select(e => e.Sha256), Is.EqualTo(new[] { A, B, C, B, C }.Select(AfsIndependentReader.Sha256)), "the reader also checks every padding is zeros");
    }

    [Test]
    public void Build_AnEntryAddressedByName_IsRefusedNamingTheFormat()
    {
        var path = _dir.Write("named.awb", AwbTestWriter.Write([A]));
        var format = ArchiveFormats.ByName("awb")!;
        Assert.That(() => format.Build(format.ReadIndex(path), new ArchivePatch([new EntryChange(EntryKey.ByName("a.hca"), EntryInput.FromBytes(C), "mod")])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("AWB"));
    }

}
