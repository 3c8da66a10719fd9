using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The AFS build rules of docs/FORMATS.md ("CRI AFS", Build) on originals laid out otherwise than our test writer lays
/// them: a header longer than needed, a first entry off the 0x800 grid, a gap between entries, a last entry whose
/// padding is not in the file, a name table pointer before the first data. Offsets come from the independent reader.
/// </summary>
public sealed class AfsLayoutTests
{
    private const int Sector = 0x800;
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("afs-layout");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    /// <summary>
    /// An AFS with the entries at the given offsets and no name table; every byte no entry or header holds is
    /// <paramref name="fill"/>, so a build that copies the original's bytes where it should write zeros shows it.
    /// </summary>
    private string Original(long length, (long Offset, byte[] Data)[] entries, byte fill = 0)
    {
        var bytes = new byte[length];
        bytes.AsSpan().Fill(fill);
        bytes.AsSpan(0, 8 + 8 * entries.Length + 8).Clear();
        bytes.AsSpan((int)entries[0].Offset - 8, 8).Clear(); // no name table pointer before the first data either
        "AFS\0"u8.CopyTo(bytes);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(4), (uint)entries.Length);
        for (int i = 0; i < entries.Length; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8 + 8 * i), (uint)entries[i].Offset);
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(12 + 8 * i), (uint)entries[i].Data.Length);
            entries[i].Data.CopyTo(bytes, entries[i].Offset);
        }
        return _dir.Write($"original-{Guid.NewGuid():N}.afs", bytes);
    }

    private (byte[] Bytes, IReadOnlyList<AfsIndependentReader.Entry> Entries) Build(string original, params (int Index, byte[]? Data)[] changes)
    {
        var index = ArchiveFormats.ByName("afs")!.ReadIndex(original);
        using var archive = ArchiveFormats.ByName("afs")!.Build(index, new ArchivePatch(changes.Select(c =>
            new EntryChange(EntryKey.ByIndex(c.Index), c.Data is null ? null : EntryInput.FromBytes(c.Data), "mod")).ToArray()));
        var bytes = AfsTests.Materialise(archive);
        var path = _dir.Write($"built-{Guid.NewGuid():N}.afs", bytes);
        Assert.That(bytes.Length % Sector, Is.Zero, "the file ends on a sector boundary");
        return (bytes, AfsIndependentReader.Read(path));
    }

    private static readonly byte[] A = TestData.Random(1, 0x100), B = TestData.Random(2, 0x300), C = TestData.Random(3, 0x50);

    [Test]
    public void Build_AHeaderLongerThanNeeded_IsKept_AndEntriesBeforeTheChangeKeepTheirOffsetsAndGaps()
    {
        // Header 0x1000 (aligned, more than the 0x800 two entries need); a free sector between A and B.
        var original = Original(0x3000, [(0x1000, A), (0x2000, B), (0x2800, C)]);
        var (_, entries) = Build(original, (2, TestData.Random(4, 10)));
        Assert.That(entries.Select(e => e.Offset), Is.EqualTo(new long[] { 0x1000, 0x2000, 0x2800 }));
    }

    [Test]
    public void Build_AfterAnEntryThatShrank_TheUnchangedOnesStayWhereTheyWere_NotPackedHalfABlockCloser()
    {
        var original = Original(0x3000, [(0x1000, A), (0x2000, B), (0x2800, C)]);
        var (_, entries) = Build(original, (0, TestData.Random(4, 10)));
        Assert.That(entries.Select(e => e.Offset), Is.EqualTo(new long[] { 0x1000, 0x2000, 0x2800 }),
            "B could go at 0x1800, but a move of half a 4 KiB block would leave none of its blocks shareable with the original");
    }

    [Test]
    public void Build_AfterAnEntryThatGrew_TheUnchangedOnesMoveByWholeBlocks_AndTheirPaddingAndBytesComeAlong()
    {
        var original = Original(0x3000, [(0x1000, A), (0x2000, B), (0x2800, C)]); // B's bytes lie where the gap will be
        var grown = TestData.Random(5, 0x1100); // ends at 0x2100: packed, B would go at 0x2800
        var (bytes, entries) = Build(original, (0, grown));
        Assert.That(entries.Select(e => e.Offset), Is.EqualTo(new long[] { 0x1000, 0x3000, 0x3800 }));
        Assert.That(entries[1].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(B)));
        Assert.That(entries[2].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(C)));
        Assert.That(bytes.AsSpan(0x2100, 0x3000 - 0x2100).ToArray(), Is.All.Zero, "the gap before the moved B is zeros, not the original's bytes");
    }

    [Test]
    public void Build_AnEntryEmptied_CountsAsTheFirstChange()
    {
        var original = Original(0x3000, [(0x1000, A), (0x2000, B), (0x2800, C)]);
        var (_, entries) = Build(original, (0, []));
        Assert.That(entries.Select(e => (e.Offset, e.Size)), Is.EqualTo(new[] { (0L, 0L), (0x1000L, (long)B.Length), (0x1800L, (long)C.Length) }));
    }

    [Test]
    public void Build_AFirstEntryOffTheGrid_GetsTheSmallestHeader_AndZerosNotTheOriginalsBytesAsPadding()
    {
        var original = Original(0x1800, [(0x810, A), (0x1000, B)], fill: 0xEE);
        var (bytes, entries) = Build(original, (1, C));
        Assert.That(entries.Select(e => e.Offset), Is.EqualTo(new long[] { 0x800, 0x1000 }));
        Assert.That(entries[0].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(A)));
        Assert.That(bytes.AsSpan(0x800 + A.Length, 0x800 - A.Length).ToArray(), Is.All.Zero, "the padding after A");
    }

    [Test]
    public void Build_ALastEntryWhosePaddingIsNotInTheFile_IsCopiedWithoutIt()
    {
        var original = Original(0x1000 + B.Length, [(0x800, A), (0x1000, B)]); // the file ends where B does
        var (bytes, entries) = Build(original, (0, C));
        Assert.That(entries.Select(e => e.Offset), Is.EqualTo(new long[] { 0x800, 0x1000 }));
        Assert.That(entries[1].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(B)));
        Assert.That(bytes, Has.Length.EqualTo(0x1800));
    }

    [Test]
    public void Build_255Entries_NeedASecondHeaderSector()
    {
        // 8 + 8n + 8 is 2,048 for 254 entries and 2,056 for 255.
        var original = _dir.Write("three.afs", AfsTestWriter.Write([A, B, C], AfsTestWriter.NameTable.None));
        Assert.That(Build(original, (253, C)).Entries[0].Offset, Is.EqualTo(0x800));
        Assert.That(Build(original, (254, C)).Entries[0].Offset, Is.EqualTo(0x1800), "the header ends at 0x1000; A moves a whole block");
    }

    [Test]
    public void Build_AnEntryOrAnArchivePast4GiB_IsRefused()
    {
        static EntryInput Zeros(long length) => ZeroInputs.Of(length);
        var original = _dir.Write("two.afs", AfsTestWriter.Write([A, B], AfsTestWriter.NameTable.None));
        var afs = ArchiveFormats.ByName("afs")!;
        EmulatedArchive With(params (int Index, EntryInput Input)[] changes) => afs.Build(afs.ReadIndex(original),
            new ArchivePatch(changes.Select(c => new EntryChange(EntryKey.ByIndex(c.Index), c.Input, "mod")).ToArray()));

        using (var fits = With((0, Zeros(uint.MaxValue - 0x2000L))))
            Assert.That(fits.File.Length, Is.LessThanOrEqualTo(uint.MaxValue));
        Assert.That(() => With((0, Zeros(uint.MaxValue + 1L))), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("entry 0: zeros (emulated, 4294967296 bytes) is 4294967296 bytes; AFS sizes stop at 4 GiB"));
        Assert.That(() => With((0, Zeros(3L << 30)), (1, Zeros(3L << 30))), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("the emulated AFS archive would be 6442452992 bytes; AFS offsets stop at 4 GiB"));
    }

    [TestCase(AfsTestWriter.NameTable.AfterEntryTable)]
    [TestCase(AfsTestWriter.NameTable.BeforeFirstData)]
    public void Build_TheNameTablePointer_StaysWhereTheOriginalHadIt_AndAnAddedEntryGetsItsName(AfsTestWriter.NameTable table)
    {
        var original = _dir.Write("named.afs", AfsTestWriter.Write([A, B], table));
        var index = ArchiveFormats.ByName("afs")!.ReadIndex(original);
        var file = _dir.Write("mod/extra.bin", C);
        using var archive = ArchiveFormats.ByName("afs")!.Build(index, new ArchivePatch([new EntryChange(EntryKey.ByIndex(2), EntryInput.FromFile(file), "mod")]));
        var bytes = AfsTests.Materialise(archive);
        int n = 3, header = (int)AfsIndependentReader.Read(_dir.Write("built.afs", bytes))[0].Offset;
        long after = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(8 + 8 * n)), before = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(header - 8));
        Assert.That(table == AfsTestWriter.NameTable.AfterEntryTable ? (after != 0, before) : (before != 0, after), Is.EqualTo((true, 0L)),
            "the pointer in one place, the other zero");
        Assert.That(AfsIndependentReader.Read(_dir.Write("built2.afs", bytes)).Select(e => e.Name), Is.EqualTo(new[] { "name_0.bin", "name_1.bin", "extra.bin" }));
        Assert.That(archive.Entries.Select(e => e.Name), Is.EqualTo(new[] { "name_0.bin", "name_1.bin", "extra.bin" }));
    }
}
