using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>
/// The CPK header fields the builder moves and the ITOC parts it splits, read back by the independent Python reader:
/// TotalFiles and TotalDataSize (moved by the change, left alone when zero), table sizes that count their packet's
/// padding (all but the file's last table), DataL and DataH at the 16-bit boundary, the ID range and its refusals.
/// </summary>
public sealed class CpkHeaderFieldTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cpk-header");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static EntryChange Change(string name, byte[]? bytes) => new(EntryKey.ByName(name), bytes is null ? null : EntryInput.FromBytes(bytes), "mod");
    private static EntryChange Change(int id, byte[]? bytes) => new(EntryKey.ByIndex(id), bytes is null ? null : EntryInput.FromBytes(bytes), "mod");

    private static EmulatedArchive Build(string path, params EntryChange[] changes) =>
        CpkFormat.Instance.Build(CpkFormat.Instance.ReadIndex(path), new ArchivePatch(changes));

    [Test]
    public void Build_TotalsAndPaddedTableSizes_MoveWithTheChangeAndTheLastTableIsUnpadded()
    {
        var entries = CpkTestFiles.Named();
        var path = _dir.Write("totals.cpk", CpkTestWriter.WriteNamed(entries,
            new CpkTestWriter.Options(WithEtoc: true, PaddedSizes: true, TotalFiles: 9, TotalDataSize: 1_000_000)));
        var before = CpkIndependentReader.Read(path);
        Assert.That(before.HeaderNumber("TocSize") % 0x800, Is.Zero, "the original's TOC size counts its padding");

        var bigger = TestData.Random(7, 5000);
        var added = TestData.Random(8, 700);
        using var archive = Build(path, Change("battle/tex.dds", bigger), Change("new/added.bin", added));
        var built = _dir.Write("built.cpk", CpkTestFiles.Materialise(archive));
        var after = CpkIndependentReader.Read(built);

        Assert.That(after.Entries.Select(e => e.Path), Is.EqualTo(before.Entries.Select(e => e.Path).Append("new/added.bin")));
        long packedBefore = before.Entries.Sum(e => e.FileSize), packedAfter = after.Entries.Sum(e => e.FileSize);
        Assert.That(packedAfter - packedBefore, Is.EqualTo(2000 + 700));
        Assert.That(after.HeaderNumber("Files"), Is.EqualTo(6));
        Assert.That(after.HeaderNumber("TotalFiles"), Is.EqualTo(10), "9, plus the one file added");
        Assert.That(after.HeaderNumber("TotalDataSize"), Is.EqualTo(1_000_000 + 2700), "moved by the packed sizes' change");
        Assert.That(after.HeaderNumber("TocSize"), Is.EqualTo(after.ContentOffset - after.TocOffset), "padded up to the content, as the original's");
        Assert.That(after.HeaderNumber("EtocSize"), Is.EqualTo(new FileInfo(built).Length - after.EtocOffset), "the file's last table: its packet alone");
        Assert.That(after.HeaderNumber("EtocSize") % 0x800, Is.Not.Zero, "so not padded");
    }

    [Test]
    public void Build_TotalsStoredAsZero_StayZero()
    {
        var path = _dir.Write("zero-totals.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named(), new CpkTestWriter.Options(TotalFiles: 0, TotalDataSize: 0)));
        using var archive = Build(path, Change("battle/tex.dds", TestData.Random(7, 5000)), Change("new/added.bin", TestData.Random(8, 700)));
        var after = CpkIndependentReader.Read(_dir.Write("built.cpk", CpkTestFiles.Materialise(archive)));
        Assert.That(after.Header["TotalFiles"].GetInt64(), Is.Zero, "a per-row zero: no count was kept, none is made up");
        Assert.That(after.Header["TotalDataSize"].GetInt64(), Is.Zero);
        Assert.That(after.HeaderNumber("Files"), Is.EqualTo(6));
    }

    [Test]
    public void Build_IdOnly_SizesUpTo65535GoToDataLAndLargerToDataH_DeletesListedByIdAndThePaddedItocSizeKept()
    {
        var path = _dir.Write("ids.cpk", CpkTestWriter.WriteIdOnly(
        [
            new(0, TestData.Random(1, 100)), new(1, TestData.Random(2, 65535)), new(2, TestData.Random(3, 70000)),
            new(3, TestData.Random(4, 5)), new(4, TestData.Random(5, 6)),
        ], new CpkTestWriter.Options(PaddedSizes: true, TotalFiles: 5)));
        using var archive = Build(path,
            Change(0, TestData.Random(11, 65536)), Change(2, TestData.Random(12, 65535)), Change(65535, TestData.Random(13, 10)),
            Change(4, null), Change(1, null));
        var built = _dir.Write("built.cpk", CpkTestFiles.Materialise(archive));
        var after = CpkIndependentReader.Read(built);

        Assert.That(after.Entries.Select(e => $"{e.Id} {e.ExtractSize}"), Is.EqualTo(new[] { "0 65536", "2 65535", "3 5", "65535 10" }));
        Assert.That(after.HeaderNumber("TotalFiles"), Is.EqualTo(4));
        Assert.That(after.HeaderNumber("ItocSize"), Is.EqualTo(after.ContentOffset - after.ItocOffset), "padded up to the content, as the original's");
        var (low, high) = Parts(built, after.ItocOffset);
        Assert.That((low.Name, high.Name), Is.EqualTo(("CpkItocL", "CpkItocH")));
        Assert.That(low.Rows.Select(r => $"{r["ID"]} {r["FileSize"]} {r["ExtractSize"]}"), Is.EqualTo(new[] { "2 65535 65535", "3 5 5", "65535 10 10" }));
        Assert.That(high.Rows.Select(r => $"{r["ID"]} {r["FileSize"]} {r["ExtractSize"]}"), Is.EqualTo(new[] { "0 65536 65536" }));
        Assert.That(archive.Entries.Select(e => $"{e.Index} {e.Size} {e.State} {e.Origin}"), Is.EqualTo(new[]
        {
            "0 65536 Replaced mod", "1 65535 Replaced mod", "2 5 Original original", "3 10 Added mod", "1 0 Deleted mod", "4 0 Deleted mod",
        }));
    }

    [TestCase(-1)]
    [TestCase(65536)]
    public void Build_IdOnly_AnIdOutsideTheItocsRange_IsRefused(int id)
    {
        var path = _dir.Write("ids.cpk", CpkTestWriter.WriteIdOnly([new(0, TestData.Random(1, 100))]));
        Assert.That(() => Build(path, Change(id, [1])), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
            $"entries of an ID-only CPK are addressed by ID from 0 to 65535; '{id}' (from mod) is not one"));
        Assert.That(() => Build(path, Change("0", [1])), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("'0' (from mod) is not one"),
            "a name, not an ID");
    }

    [Test]
    public void Build_IdOnly_AnIdChangedTwice_IsRefusedNamingBoth()
    {
        var path = _dir.Write("ids.cpk", CpkTestWriter.WriteIdOnly([new(0, TestData.Random(1, 100))]));
        Assert.That(() => Build(path, new EntryChange(EntryKey.ByIndex(0), EntryInput.FromBytes(new byte[] { 1 }), "first"),
                new EntryChange(EntryKey.ByIndex(0), null, "second")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("ID 0 is changed twice (first, second)"));
    }

    [TestCase("/battle/tex.dds")]
    [TestCase("battle/")]
    [TestCase("battle//tex.dds")]
    public void Build_APathThatIsNoCpkPath_IsRefused(string name)
    {
        var path = _dir.Write("named.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named()));
        Assert.That(() => Build(path, Change(name, [1])), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains($"CPK entries are addressed by a path inside the CPK (\"dir/file\"); '{name}' (from mod) is not one"));
    }

    [Test]
    public void Build_IdOnly_AnItocThatGrowsPastItsSector_MovesTheContentAndSaysWhere()
    {
        // ID-only entries are found from ContentOffset alone (no offsets in the ITOC), so a stale one misplaces every entry.
        var first = TestData.Random(1, 100);
        var path = _dir.Write("ids.cpk", CpkTestWriter.WriteIdOnly([new(0, first)]));
        var before = CpkIndependentReader.Read(path);
        var added = Enumerable.Range(1, 600).Select(id => Change(id, TestData.Random(id, 10))).ToArray();
        using var archive = Build(path, added);
        var after = CpkIndependentReader.Read(_dir.Write("built.cpk", CpkTestFiles.Materialise(archive)));
        Assert.That(after.ContentOffset, Is.GreaterThan(before.ContentOffset), "600 ITOC rows need more than the original's sector");
        Assert.That(after.Entries.Select(e => e.ContentSha256),
            Is.EqualTo(new[] { first }.Concat(Enumerable.Range(1, 600).Select(id => TestData.Random(id, 10))).Select(CpkTestFiles.Sha)));
    }

    [Test]
    public void Build_EtocRows_FollowTheirEntries_AndAnAddedEntryGetsAZeroTimeAndItsFolder()
    {
        var path = _dir.Write("etoc.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named(), new CpkTestWriter.Options(WithEtoc: true, UpdateDateTime: 0x0123456789)));
        using var archive = Build(path, Change("battle/tex.dds", TestData.Random(7, 5000)), Change("new/deep/added.bin", TestData.Random(8, 700)));
        var built = _dir.Write("built.cpk", CpkTestFiles.Materialise(archive));
        var etoc = UtfIndependentReader.Read(built, CpkIndependentReader.Read(built).EtocOffset + 0x10);
        Assert.That(etoc.Rows.Select(r => $"{r["UpdateDateTime"].GetInt64()} {r["LocalDir"].GetString()}"), Is.EqualTo(new[]
        {
            "4886718345 battle", "4886718345 battle", "4886718345 field/map", "4886718345 ", "4886718345 sound", "0 new/deep",
        }));
    }

    /// <summary>The ITOC's DataL and DataH tables, each read on its own by the independent @UTF reader.</summary>
    private (UtfIndependentReader.Table Low, UtfIndependentReader.Table High) Parts(string cpk, long itocOffset)
    {
        var itoc = UtfIndependentReader.Read(cpk, itocOffset + 0x10).Rows.Single();
        UtfIndependentReader.Table Part(string column) =>
            UtfIndependentReader.Read(_dir.Write($"{column}.utf", Convert.FromHexString(itoc[column].GetProperty("hex").GetString()!)));
        return (Part("DataL"), Part("DataH"));
    }
}
