using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;
using static ArchiveEmu.Core.Tests.Formats.ZipTestArchives;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>ZIP originals from Python, Info-ZIP and 7-Zip; every built archive re-read by unzip, 7z, bsdtar, Python and our reader.</summary>
public sealed class ZipTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("zip");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    public static IEnumerable<string> AllKinds() => Kinds;

    [TestCaseSource(nameof(AllKinds))]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal(string kind)
    {
        var original = MakeOriginal(kind);
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.State), Is.All.EqualTo(EntryState.Original));
    }

    [TestCaseSource(nameof(AllKinds))]
    public void ReadIndex_ToolMadeArchive_FindsEveryEntryWithItsDataWhereTheToolsSayItIs(string kind)
    {
        var original = MakeOriginal(kind);
        var index = ZipFormat.Instance.ReadIndex(original);
        Assert.That(index.Entries.Select(e => e.Name), Is.EquivalentTo(new[] { "sub/", "a.dds", "sub/b.dds", "c.txt", "empty.bin", "plain.txt" }));
        var python = ExternalTool.Python("""
import zipfile, struct, sys
data = open(sys.argv[1], 'rb').read()
for i in zipfile.ZipFile(sys.argv[1]).infolist():
    n, e = struct.unpack_from('<HH', data, i.header_offset + 26)
    print(i.filename, i.header_offset + 30 + n + e, i.compress_size)
""", original);
        Assert.That(python.ExitCode, Is.Zero, python.ToString());
        Assert.That(index.Entries.Select(e => $"{e.Name} {e.Offset} {e.Size}"),
            Is.EquivalentTo(python.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
    }

    [TestCaseSource(nameof(AllKinds))]
    public void Build_ReplaceAddDelete_IndependentReadersSeeExactlyTheModdedFiles(string kind)
    {
        var original = MakeOriginal(kind);
        var expected = ReadWithPython(original);
        var bigger = TestData.Random(1, 7000);
        var smaller = TestData.Random(2, 3);
        var added = TestData.Random(3, 1500);
        var filled = TestData.Random(4, 42);
        var unicode = TestData.Random(5, 10);
        using var archive = Build(original,
            Change("a.dds", bigger),
            Change("sub/b.dds", smaller),
            Change("new/added.dds", added),
            Change("empty.bin", filled),
            Change("ünï/名前.bin", unicode),
            new EntryChange(EntryKey.ByName("c.txt"), null, "mod"));

        expected["a.dds"] = Sha(bigger);
        expected["sub/b.dds"] = Sha(smaller);
        expected["new/added.dds"] = Sha(added);
        expected["empty.bin"] = Sha(filled);
        expected["ünï/名前.bin"] = Sha(unicode);
        expected.Remove("c.txt");
        var built = Write(archive);
        CheckWithIndependentReaders(built, expected);
        Assert.That(ZipFormat.Instance.ReadIndex(built).Entries.Where(e => !e.Name!.EndsWith('/')).Select(e => e.Name), Is.EquivalentTo(expected.Keys));
        Assert.That(archive.Count(EntryState.Replaced), Is.EqualTo(3));
        Assert.That(archive.Count(EntryState.Added), Is.EqualTo(2));
        Assert.That(archive.Entries.Single(e => e.State == EntryState.Deleted).Name, Is.EqualTo("c.txt"));
    }

    [TestCaseSource(nameof(AllKinds))]
    public void Build_OneReplacement_UnchangedEntriesStaySlicesOfTheOriginalInOneRunEachSide(string kind)
    {
        var original = MakeOriginal(kind);
        var index = (ZipIndex)ZipFormat.Instance.ReadIndex(original);
        using var archive = ZipFormat.Instance.Build(index, new ArchivePatch([Change("c.txt", TestData.Random(6, 99))]));
        var fromOriginal = archive.File.Segments.ToArray().Where(s => s.Source is ArchiveEmu.Core.VirtualFiles.FileSource f && f.Path == index.Path).ToArray();
        Assert.That(fromOriginal, Has.Length.LessThanOrEqualTo(2), "entries before and after c.txt each merge into one slice");
        long unchanged = index.ZipEntries.Where(e => e.Name != "c.txt").Sum(e => e.RecordEnd - e.LocalHeaderOffset);
        Assert.That(archive.BytesFromOriginal, Is.EqualTo(unchanged), "compressed bytes and descriptors are not copied, nor dead bytes kept");
        Assert.That(archive.BytesFromLooseFiles, Is.EqualTo(99));
        CheckWithIndependentReaders(Write(archive), ReadWithPython(original).ToDictionary(p => p.Key, p => p.Key == "c.txt" ? Sha(TestData.Random(6, 99)) : p.Value));
    }

    [Test]
    public void Build_DeleteOfAMissingEntryOrReplaceOfADirectory_IsRefusedNamingIt()
    {
        var original = MakeOriginal("python");
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByName("nope.bin"), null, "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("nope.bin").And.Message.Contains("no such entry"));
        Assert.That(() => Build(original, Change("sub", [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("'sub/' is a directory"));
    }

    [TestCase("../escape.bin")]
    [TestCase("/absolute.bin")]
    [TestCase("a//b.bin")]
    [TestCase("a\\b.bin")]
    [TestCase("sub/./b.bin")]
    [TestCase("C:/x.bin")]
    [TestCase("dir/")]
    public void Build_PatchNameThatIsNotACleanRelativePath_IsRefused(string name)
    {
        var original = MakeOriginal("python");
        Assert.That(() => Build(original, Change(name, [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("original-python.zip").And.Message.Contains("relative path"));
    }

    [Test]
    public void Build_OriginalWithTraversalAndAbsoluteNames_KeepsThemAsTheyAre()
    {
        var original = _dir["odd.zip"];
        Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for name in ['../evil.txt', '/abs.txt', 'ok.txt']:
        z.writestr(zipfile.ZipInfo(name, (2001, 1, 1, 0, 0, 0)), name.encode())
""", original);
        var names = ZipFormat.Instance.ReadIndex(original).Entries.Select(e => e.Name).ToArray();
        using var archive = Build(original, Change("ok.txt", [7, 7]));
        var built = Write(archive);
        Assert.That(ZipFormat.Instance.ReadIndex(built).Entries.Select(e => e.Name), Is.EqualTo(names));
        Assert.That(names, Does.Contain("../evil.txt"));
        var expected = ReadWithPython(original);
        expected["ok.txt"] = Sha([7, 7]);
        Assert.That(ReadWithPython(built), Is.EquivalentTo(expected));
    }

    [Test]
    public void Build_ThreeThousandEntries_ReplacesEveryHundredth()
    {
        var original = _dir["many.zip"];
        Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for i in range(3000):
        z.writestr(zipfile.ZipInfo('m/%05d.bin' % i, (2001, 1, 1, 0, 0, 0)), (b'm%05d' % i) * (i % 7 + 1), zipfile.ZIP_DEFLATED if i % 2 else zipfile.ZIP_STORED)
""", original);
        var expected = ReadWithPython(original);
        var changes = Enumerable.Range(0, 30).Select(k => Change($"m/{k * 100:D5}.bin", TestData.Random(k, 100 + k))).ToArray();
        using var archive = Build(original, changes);
        for (int k = 0; k < changes.Length; k++)
            expected[changes[k].Key.Name!] = Sha(TestData.Random(k, 100 + k));
        var built = Write(archive);
        CheckWithIndependentReaders(built, expected);
        Assert.That(ZipFormat.Instance.ReadIndex(built).Entries, Has.Count.EqualTo(3000));
    }

    [Test]
    public void Build_MoreThan65535Entries_WritesZip64EndRecordsThatEveryReaderFollows()
    {
        var original = _dir["huge-count.zip"];
        Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for i in range(65600):
        z.writestr(zipfile.ZipInfo('%05d' % i, (2001, 1, 1, 0, 0, 0)), b'x')
""", original);
        Assert.That(ZipFormat.Instance.ReadIndex(original).Entries, Has.Count.EqualTo(65600), "the original's own zip64 end record");
        using var archive = Build(original, new EntryChange(EntryKey.ByName("00000"), null, "mod"), Change("zz.bin", [1, 2, 3]));
        var built = Write(archive);
        var bytes = File.ReadAllBytes(built);
        Assert.That(bytes.AsSpan(bytes.Length - 22 - 20 - 56, 4).ToArray(), Is.EqualTo("PK\u0006\u0006"u8.ToArray()));
        Assert.That(ZipFormat.Instance.ReadIndex(built).Entries, Has.Count.EqualTo(65600));
        var unzip = ExternalTool.Run("unzip", "-t", "-qq", built);
        Assert.That(unzip.ExitCode, Is.Zero, unzip.ToString());
        var python = ExternalTool.Python("import zipfile, sys; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.infolist()), z.read('zz.bin').hex())", built);
        Assert.That(python.StdOut.Trim(), Is.EqualTo("65600 010203"), python.ToString());
    }

    [Test]
    public void Detect_ZipEmptyZipAndOtherData_TellsThemApart()
    {
        var zip = File.ReadAllBytes(MakeOriginal("python"));
        Assert.That(ZipFormat.Instance.Detect(zip, zip.Length), Is.True);
        byte[] empty = [0x50, 0x4b, 5, 6, .. new byte[18]];
        Assert.That(ZipFormat.Instance.Detect(empty, empty.Length), Is.True);
        Assert.That(ZipFormat.Instance.Detect(TestData.Random(1, 100), 100), Is.False);
        Assert.That(ZipFormat.Instance.Detect("AFS\0rest"u8, 8), Is.False);
        Assert.That(ArchiveFormats.Detect(_dir.Write("e.zip", empty)), Is.SameAs(ZipFormat.Instance));
    }

    [Test]
    public void Build_AddToAnEmptyZip_GivesAOneEntryArchive()
    {
        var original = _dir.Write("empty.zip", [0x50, 0x4b, 5, 6, .. new byte[18]]);
        using var archive = Build(original, Change("only.bin", [9]));
        CheckWithIndependentReaders(Write(archive), new() { ["only.bin"] = Sha([9]) });
    }

    private string MakeOriginal(string kind)
    {
        var path = _dir[$"original-{kind}.zip"];
        Make(path, kind);
        return path;
    }

    private string Write(EmulatedArchive archive) => _dir.Write($"built-{Guid.NewGuid():N}.zip", AfsTests.Materialise(archive));

    private EntryChange Change(string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(_dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    private static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        ZipFormat.Instance.Build(ZipFormat.Instance.ReadIndex(original), new ArchivePatch(changes));
}
