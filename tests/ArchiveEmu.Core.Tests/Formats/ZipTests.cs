using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;
using static ArchiveEmu.Core.Tests.Formats.ZipTestArchives;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// ZIP originals from Python, Info-ZIP and 7-Zip; every built archive re-read by unzip, 7z, bsdtar and Python. Expected
/// names, offsets, record spans and contents come from Python's zipfile, never from our own reader.
/// </summary>
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
        var index = (ZipIndex)ZipFormat.Instance.ReadIndex(original);
        Assert.That(index.Entries.Select(e => e.Name), Is.EquivalentTo(new[] { "sub/", "a.dds", "sub/b.dds", "c.txt", "empty.bin", "plain.txt" }));
        var python = RecordsWithPython(original);
        Assert.That(index.Entries.Select(e => $"{e.Name} {e.Offset} {e.Size}"), Is.EquivalentTo(python.Select(r => $"{r.Name} {r.Data} {r.Size}")));
        Assert.That(index.ZipEntries.Select(e => $"{e.Name} {e.LocalHeaderOffset} {e.RecordEnd}"),
            Is.EquivalentTo(python.Select(r => $"{r.Name} {r.Header} {r.End}")), "each record's span, its data descriptor included");
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
        Assert.That(RecordsWithPython(built).Select(r => r.Name), Is.EquivalentTo(RecordsWithPython(original).Select(r => r.Name).Where(n => n != "c.txt")
            .Append("new/added.dds").Append("ünï/名前.bin")), "directories kept, nothing else added");
        Assert.That(archive.Count(EntryState.Replaced), Is.EqualTo(3));
        Assert.That(archive.Count(EntryState.Added), Is.EqualTo(2));
        Assert.That(archive.Entries.Single(e => e.State == EntryState.Deleted).Name, Is.EqualTo("c.txt"));
    }

    [TestCaseSource(nameof(AllKinds))]
    public void Build_OneReplacement_UnchangedEntriesStaySlicesOfTheOriginalInOneRunEachSide(string kind)
    {
        var original = MakeOriginal(kind);
        var index = ZipFormat.Instance.ReadIndex(original);
        using var archive = ZipFormat.Instance.Build(index, new ArchivePatch([Change("c.txt", TestData.Random(6, 99))]));
        var fromOriginal = archive.File.Segments.ToArray().Where(s => s.Source is ArchiveEmu.Core.VirtualFiles.FileSource f && f.Path == index.Path).ToArray();
        Assert.That(fromOriginal, Has.Length.LessThanOrEqualTo(2), "entries before and after c.txt each merge into one slice");
        long unchanged = RecordsWithPython(original).Where(r => r.Name != "c.txt").Sum(r => r.End - r.Header);
        Assert.That(archive.BytesFromOriginal, Is.EqualTo(unchanged), "compressed bytes and descriptors are not copied, nor dead bytes kept");
        Assert.That(archive.BytesFromLooseFiles, Is.EqualTo(99));
        CheckWithIndependentReaders(Write(archive), ReadWithPython(original).ToDictionary(p => p.Key, p => p.Key == "c.txt" ? Sha(TestData.Random(6, 99)) : p.Value));
    }

    [TestCase("streamed", 16)]
    [TestCase("streamed-zip64", 24)]
    public void Build_DataDescriptorsWithJunkBetweenEntries_UnchangedSlicesEndAtTheDescriptor(string kind, int descriptorLength)
    {
        var original = MakeOriginal(kind);
        var spaced = _dir["spaced.zip"];
        Python("""
import struct, sys, zipfile
data = open(sys.argv[1], 'rb').read()
infos = sorted(zipfile.ZipFile(sys.argv[1]).infolist(), key=lambda i: i.header_offset)
cd = struct.unpack_from('<I', data, len(data) - 22 - len(b'original comment') + 16)[0]
starts = [i.header_offset for i in infos] + [cd]
out, moved = bytearray(), {}
for a, b in zip(starts, starts[1:]):
    moved[a] = len(out)
    out += data[a:b] + b'JUNK' * 3  # dead bytes no record points at
directory = bytearray(data[cd:])
at = 0
while directory[at:at + 4] == b'PK\x01\x02':
    struct.pack_into('<I', directory, at + 42, moved[struct.unpack_from('<I', directory, at + 42)[0]])
    n, e, c = struct.unpack_from('<HHH', directory, at + 28)
    at += 46 + n + e + c
struct.pack_into('<I', directory, at + 16, len(out))
open(sys.argv[2], 'wb').write(out + directory)
""", original, spaced);
        var index = (ZipIndex)ZipFormat.Instance.ReadIndex(spaced);
        foreach (var e in index.ZipEntries.Where(e => !e.IsDirectory))
            Assert.That(e.RecordEnd - e.DataOffset - e.CompressedSize, Is.EqualTo(descriptorLength), e.Name);
        var records = RecordsWithPython(spaced);
        Assert.That(records.Where(r => !r.Name.EndsWith('/')).Select(r => r.End - r.Data - r.Size), Is.All.EqualTo(descriptorLength), "Python finds the same descriptors");

        var expected = ReadWithPython(spaced);
        expected["plain.txt"] = Sha([5]);
        using var archive = Build(spaced, Change("plain.txt", [5]));
        Assert.That(archive.BytesFromOriginal, Is.EqualTo(records.Where(r => r.Name != "plain.txt").Sum(r => r.End - r.Header)), "the junk between records is not copied");
        CheckWithIndependentReaders(Write(archive), expected);
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

    [Test]
    public void Build_SymbolicLinkAndDirectory_LinkCannotBeReplacedButBothCanBeDeleted()
    {
        var original = _dir["links.zip"];
        Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.mkdir('dir')
    link = zipfile.ZipInfo('link.dds', (2001, 1, 1, 0, 0, 0)); link.create_system = 3; link.external_attr = 0o120777 << 16
    z.writestr(link, 'target.dds')
    z.writestr(zipfile.ZipInfo('target.dds', (2001, 1, 1, 0, 0, 0)), b'T')
""", original);
        Assert.That(() => Build(original, Change("link.dds", [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("'link.dds' is a symbolic link"));
        using var archive = Build(original, new EntryChange(EntryKey.ByName("link.dds"), null, "mod"), new EntryChange(EntryKey.ByName("dir"), null, "mod"));
        var built = Write(archive);
        Assert.That(RecordsWithPython(built).Select(r => r.Name), Is.EqualTo(new[] { "target.dds" }));
        CheckWithIndependentReaders(built, new() { ["target.dds"] = Sha("T"u8.ToArray()) });
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
        var names = RecordsWithPython(original).Select(r => r.Name).ToArray();
        using var archive = Build(original, Change("ok.txt", [7, 7]));
        var built = Write(archive);
        Assert.That(RecordsWithPython(built).Select(r => r.Name), Is.EqualTo(names));
        Assert.That(names, Is.EqualTo(new[] { "../evil.txt", "/abs.txt", "ok.txt" }), "as Python wrote them, not cleaned");
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
        Assert.That(RecordsWithPython(built), Has.Length.EqualTo(3000));
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
        byte[] embedded = [.. TestData.Random(7, 500), .. zip];
        Assert.That(ZipFormat.Instance.Detect(embedded, embedded.Length), Is.False, "a zip inside other data, its offsets relative to itself");
    }

    [Test]
    public void Build_AddToAnEmptyZip_GivesAOneEntryArchive()
    {
        var original = _dir.Write("empty.zip", [0x50, 0x4b, 5, 6, .. new byte[18]]);
        using var archive = Build(original, Change("only.bin", [9]));
        CheckWithIndependentReaders(Write(archive), new() { ["only.bin"] = Sha([9]) });
    }

    private string MakeOriginal(string kind) => ZipTestArchives.MakeOriginal(_dir, kind);
    private string Write(EmulatedArchive archive) => ZipTestArchives.Write(_dir, archive);
    private EntryChange Change(string name, byte[] bytes) => ZipTestArchives.Change(_dir, name, bytes);
}
