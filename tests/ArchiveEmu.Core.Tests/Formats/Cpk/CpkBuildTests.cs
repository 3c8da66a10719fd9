using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>Emulated CPKs, every one re-read entry by entry by the independent reader and by ours.</summary>
public sealed class CpkBuildTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cpk");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static EntryChange Change(string name, byte[]? bytes) => new(EntryKey.ByName(name), bytes is null ? null : EntryInput.FromBytes(bytes), "mod");
    private static EntryChange Change(int id, byte[]? bytes) => new(EntryKey.ByIndex(id), bytes is null ? null : EntryInput.FromBytes(bytes), "mod");

    private EmulatedArchive Build(string path, params EntryChange[] changes) =>
        CpkFormat.Instance.Build(CpkFormat.Instance.ReadIndex(path), new ArchivePatch(changes));

    private static List<(string, byte[])> Expected(List<CpkTestWriter.NamedEntry> entries) =>
        entries.Select(e => (e.DirName.Length == 0 ? e.FileName : e.DirName + "/" + e.FileName, e.Content)).ToList();

    [Test]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal()
    {
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named()));
        using var archive = Build(path);
        Assert.That(CpkTestFiles.Materialise(archive), Is.EqualTo(File.ReadAllBytes(path)));
    }

    [TestCase(0x800, false, false)]
    [TestCase(0x20, true, true)]
    [TestCase(1, false, true)]
    public void Build_ReplaceBiggerAndSmaller_EveryEntryReadsBackAndTheHeaderStaysConsistent(int alignment, bool masked, bool etoc)
    {
        var entries = CpkTestFiles.Named(compressSome: true);
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(alignment, masked, etoc)));
        var bigger = TestData.Random(100, 9001);
        var smaller = TestData.Random(101, 7);

        using var archive = Build(path, Change("BATTLE/TEX.DDS", bigger), Change("field/map/m01.bin", smaller));

        var expected = Expected(entries);
        expected[0] = ("battle/tex.dds", bigger);
        expected[2] = ("field/map/m01.bin", smaller);
        var theirs = CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], expected);
        Assert.That(theirs.Masked, Is.EqualTo(masked));
        Assert.That(theirs.Alignment, Is.EqualTo(alignment));
        Assert.That(theirs.EtocOffset != 0, Is.EqualTo(etoc));
        Assert.That(theirs.Entries[1].Compressed, Is.True, "the unchanged compressed entry stays as stored");
        Assert.That(theirs.Entries[0].FileSize, Is.EqualTo(9001), "replaced entries are stored uncompressed");
        Assert.That(archive.Entries.Select(e => e.State), Is.EqualTo(new[]
            { EntryState.Replaced, EntryState.Original, EntryState.Replaced, EntryState.Original, EntryState.Original }));
        Assert.That(archive.Entries[0].Origin, Is.EqualTo("mod"));
    }

    [TestCase(0x800)]
    [TestCase(0x20)]
    [TestCase(1)]
    public void Build_AfterAnEntryThatGrew_UnchangedEntriesMoveByWholeBlocks_SoAClonesBlocksLineUpWithTheOriginals(int alignment)
    {
        var entries = CpkTestFiles.Named(compressSome: true);
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(alignment, WithEtoc: true)));
        var before = CpkIndependentReader.Read(path).Entries.ToDictionary(e => e.Path, e => e.Offset);
        var first = before.MinBy(e => e.Value).Key;
        var bigger = TestData.Random(104, 9001);

        using var archive = Build(path, Change(first, bigger));

        var expected = Expected(entries).Select(e => string.Equals(e.Item1, first, StringComparison.OrdinalIgnoreCase) ? (e.Item1, bigger) : e).ToList();
        var theirs = CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], expected);
        var moved = theirs.Entries.Where(e => e.Path != first).Select(e => e.Offset - before[e.Path]).ToList();
        Assert.That(moved, Has.All.GreaterThan(0), "the grown entry pushes the rest along");
        Assert.That(moved.Select(m => m % 4096), Has.All.Zero, $"moves {string.Join(", ", moved)}");
        Assert.That(theirs.Entries.Select(e => e.Offset % Math.Max(1, alignment)), Has.All.Zero, "the CPK's own alignment still holds");
    }

    [Test]
    public void Build_AddAndDelete_KeepsASortedTocSortedAndTheEtocInStep()
    {
        var entries = CpkTestFiles.Named().Where(e => e.DirName.Length > 0).ToList(); // sorted by "dir/file" (a root entry's "/x" sorts first)
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(WithEtoc: true)));
        Assert.That(CpkIndependentReader.Read(path).HeaderNumber("Sorted"), Is.EqualTo(1));
        var added = TestData.Random(102, 4000);
        var top = TestData.Random(103, 12);

        using var archive = Build(path, Change("battle/new.bin", added), Change("field/map/m01.bin", null), Change("zzz.txt", top));

        var theirs = CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"],
        [
            ("battle/new.bin", added), ("battle/tex.dds", entries[0].Content), ("battle/zz.bin", entries[1].Content),
            ("sound/bgm.awb", entries[3].Content), ("zzz.txt", top),
        ]);
        Assert.That(theirs.HeaderNumber("Files"), Is.EqualTo(5));
        Assert.That(theirs.Entries.Select(e => e.LocalDir), Is.EqualTo(new[] { "battle", "battle", "battle", "sound", "" }));
        Assert.That(theirs.Entries.Select(e => e.Id), Is.EqualTo(new long[] { 4, 0, 1, 3, 5 }));
        Assert.That(archive.Entries.Select(e => (e.Name, e.State)), Is.EqualTo(new (string?, EntryState)[]
        {
            ("battle/new.bin", EntryState.Added), ("battle/tex.dds", EntryState.Original), ("battle/zz.bin", EntryState.Original),
            ("sound/bgm.awb", EntryState.Original), ("zzz.txt", EntryState.Added), ("field/map/m01.bin", EntryState.Deleted),
        }));
    }

    [Test]
    public void Build_AddToAnUnsortedToc_AppendsTheRow()
    {
        var entries = CpkTestFiles.Named();
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries));
        Assert.That(CpkIndependentReader.Read(path).HeaderNumber("Sorted"), Is.EqualTo(0));
        var added = TestData.Random(105, 33);

        using var archive = Build(path, Change("a/first.bin", added));

        CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], Expected(entries).Append(("a/first.bin", added)).ToList());
    }

    [Test]
    public void Build_UnchangedEntriesBeforeAReplacedOne_AreOneSliceOfTheOriginal()
    {
        var entries = CpkTestFiles.Named();
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries));

        using var archive = Build(path, Change("sound/bgm.awb", TestData.Random(104, 50)));

        var fromOriginal = archive.File.Segments.ToArray().Where(s => s.Source is FileSource f && f.Path == path).ToList();
        Assert.That(fromOriginal, Has.Count.EqualTo(2), "the bytes up to the TOC, then one run of the four unchanged entries");
        var expected = Expected(entries);
        expected[4] = ("sound/bgm.awb", TestData.Random(104, 50));
        CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], expected);
    }

    [Test]
    public void Build_VersionZeroTables_StayVersionZero_ForReadersThatTakeTheRowsOffsetAs32Bits()
    {
        var entries = CpkTestFiles.Named();
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(UtfVersion: 0)));
        var tex = TestData.Random(106, 999);

        using var archive = Build(path, Change("battle/tex.dds", tex));

        var expected = Expected(entries);
        expected[0] = ("battle/tex.dds", tex);
        CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], expected);
        var bytes = File.ReadAllBytes(_dir["out.cpk"]);
        Assert.That(bytes.AsSpan(0x10 + 8, 2).ToArray(), Is.EqualTo(new byte[] { 0, 0 }), "the header table's 0x08 version");
        Assert.That(bytes.AsSpan(0x800 + 0x10 + 8, 2).ToArray(), Is.EqualTo(new byte[] { 0, 0 }), "the TOC's");
    }

    [Test]
    public void Build_IdOnlyCpk_ReplacesAddsAndDeletesById()
    {
        var entries = new List<CpkTestWriter.IdEntry>
        {
            new(2, TestData.Random(1, 10)), new(3, TestData.Random(2, 0x900)), new(7, TestData.Random(3, 70000)),
            new(9, CpkTestFiles.Compressible(4, 3000), Compress: true),
        };
        var path = _dir.Write("id.cpk", CpkTestWriter.WriteIdOnly(entries, new CpkTestWriter.Options(0x800, Masked: true)));
        var big = TestData.Random(5, 66000);
        var added = TestData.Random(6, 5);

        using var archive = Build(path, Change(2, big), Change(3, null), Change(5, added));

        CpkTestFiles.VerifyIds(archive, _dir["out.cpk"],
            [(2, big), (5, added), (7, entries[2].Content), (9, entries[3].Content)]);
        Assert.That(archive.Entries.Select(e => e.State), Is.EqualTo(new[]
            { EntryState.Replaced, EntryState.Added, EntryState.Original, EntryState.Original, EntryState.Deleted }));
    }

    [Test]
    public void Build_DeletingAnIdTheCpkLacks_IsRefusedNamingIt()
    {
        var path = _dir.Write("id.cpk", CpkTestWriter.WriteIdOnly([new(2, TestData.Random(1, 10))]));
        var e = Assert.Throws<ArchiveFormatException>(() => Build(path, Change(4, null)))!;
        Assert.That(e.Message, Does.Contain(path).And.Contain("no such ID"));
    }

    [Test]
    public void Build_NamedCpkAddressedByIndex_IsRefused()
    {
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named()));
        var e = Assert.Throws<ArchiveFormatException>(() => Build(path, Change(0, new byte[1])))!;
        Assert.That(e.Message, Does.Contain(path).And.Contain("addressed by a path"));
    }
}
