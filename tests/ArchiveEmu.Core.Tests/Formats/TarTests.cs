using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Tar;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>tar originals made by Python's tarfile; every built archive re-read by GNU tar, 7z and Python.</summary>
public sealed class TarTests
{
    private static readonly string LongName = "textures/" + new string('l', 120) + "/deep.dds";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("tar");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase("USTAR_FORMAT")]
    [TestCase("PAX_FORMAT")]
    [TestCase("GNU_FORMAT")]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal(string format)
    {
        var original = MakeOriginal(format);
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
    }

    [TestCase("USTAR_FORMAT")]
    [TestCase("PAX_FORMAT")]
    [TestCase("GNU_FORMAT")]
    public void Build_ReplaceAddDelete_IndependentReadersSeeExactlyTheModdedMembers(string format)
    {
        var original = MakeOriginal(format);
        var expected = ReadWithPython(original);
        var bigger = TestData.Random(1, 7000);
        var smaller = TestData.Random(2, 3);
        var added = TestData.Random(3, 1500);
        var addedLong = TestData.Random(4, 600);
        bool longNameIsInOriginal = format != "USTAR_FORMAT";
        using var archive = Build(original,
            Change("a.dds", bigger),
            Change("sub/b.dds", smaller),
            Change("new/added.dds", added),
            Change("new/" + new string('n', 130) + ".dds", addedLong),
            new EntryChange(EntryKey.ByName("c.txt"), null, "mod"),
            Change(longNameIsInOriginal ? LongName : "plain.txt", TestData.Random(5, 42)));

        expected["a.dds"] = Sha(bigger);
        expected["sub/b.dds"] = Sha(smaller);
        expected["new/added.dds"] = Sha(added);
        expected["new/" + new string('n', 130) + ".dds"] = Sha(addedLong);
        expected.Remove("c.txt");
        expected[longNameIsInOriginal ? LongName : "plain.txt"] = Sha(TestData.Random(5, 42));
        CheckWithIndependentReaders(archive, expected);
        Assert.That(archive.Entries.Count(e => e.State == EntryState.Deleted), Is.EqualTo(1));
    }

    [Test]
    public void Build_DeleteOfAMissingEntryOrReplaceOfADirectory_IsRefusedNamingIt()
    {
        var original = MakeOriginal("PAX_FORMAT");
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByName("nope.bin"), null, "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("nope.bin").And.Message.Contains("no such entry"));
        Assert.That(() => Build(original, Change("sub", [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("not a regular file"));
    }

    [Test]
    public void Build_ThreeThousandMembers_ReplacesEveryHundredth()
    {
        var original = _dir["many.tar"];
        Python("""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    for i in range(3000):
        data = (b'm%05d' % i) * (i % 7 + 1)
        info = tarfile.TarInfo('m/%05d.bin' % i); info.size = len(data); info.mtime = 1000000
        t.addfile(info, io.BytesIO(data))
""", original);
        var expected = ReadWithPython(original);
        var changes = Enumerable.Range(0, 30).Select(k => Change($"m/{k * 100:D5}.bin", TestData.Random(k, 100 + k))).ToArray();
        using var archive = Build(original, changes);
        foreach (var (k, c) in changes.Select((c, k) => (k, c)))
            expected[c.Key.Name!] = Sha(TestData.Random(k, 100 + k));
        CheckWithIndependentReaders(archive, expected);
    }

    [TestCase("bad checksum", 148, "checksum")]
    [TestCase("size past EOF", 124, "past the end")]
    public void ReadIndex_CorruptHeader_ThrowsNamingTheFile(string what, int field, string problem)
    {
        var bytes = File.ReadAllBytes(MakeOriginal("USTAR_FORMAT"));
        if (field == 148)
            bytes[0] ^= 0x20; // the name changes; the stored checksum no longer matches
        else
        {
            "77777777777\0"u8.CopyTo(bytes.AsSpan(124)); // 8 GiB, then fix the checksum so only the size is wrong
            bytes.AsSpan(148, 8).Fill((byte)' ');
            long sum = bytes.AsSpan(0, 512).ToArray().Sum(b => (long)b);
            System.Text.Encoding.ASCII.GetBytes(Convert.ToString(sum, 8).PadLeft(6, '0') + "\0 ").CopyTo(bytes, 148);
        }
        var path = _dir.Write("bad.tar", bytes);
        Assert.That(() => TarFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("bad.tar").And.Message.Contains(problem), what);
    }

    private string MakeOriginal(string format)
    {
        var path = _dir[$"original-{format}.tar"];
        Python($$"""
import tarfile, io, sys
entries = [('a.dds', b'A' * 3000), ('sub/b.dds', b'B' * 700), ('c.txt', b'hello\n'), ('plain.txt', b'plain')]
if tarfile.{{format}} != tarfile.USTAR_FORMAT:
    entries.append(('{{LongName}}', b'L' * 900))
with tarfile.open(sys.argv[1], 'w', format=tarfile.{{format}}) as t:
    d = tarfile.TarInfo('sub'); d.type = tarfile.DIRTYPE; d.mode = 0o755; d.mtime = 1000000
    t.addfile(d)
    for name, data in entries:
        info = tarfile.TarInfo(name); info.size = len(data); info.mtime = 1000000; info.uname = 'modder'
        t.addfile(info, io.BytesIO(data))
    s = tarfile.TarInfo('link.dds'); s.type = tarfile.SYMTYPE; s.linkname = 'a.dds'; s.mtime = 1000000
    t.addfile(s)
""", path);
        return path;
    }

    private void CheckWithIndependentReaders(EmulatedArchive archive, Dictionary<string, string> expected)
    {
        var path = _dir.Write($"built-{Guid.NewGuid():N}.tar", AfsTests.Materialise(archive));

        var list = ExternalTool.Run("tar", "-tvf", path);
        Assert.That(list.ExitCode, Is.Zero, list.ToString());
        Assert.That(list.StdErr, Is.Empty, "GNU tar must not warn");

        var extractTo = Directory.CreateDirectory(_dir[$"x-{Guid.NewGuid():N}"]).FullName;
        var extract = ExternalTool.Run("tar", "-xf", path, "-C", extractTo);
        Assert.That(extract.ExitCode, Is.Zero, extract.ToString());
        foreach (var (name, sha) in expected)
            Assert.That(Sha(File.ReadAllBytes(Path.Combine(extractTo, name))), Is.EqualTo(sha), $"GNU tar extracted {name}");

        var sevenZip = ExternalTool.Run("7z", "t", path);
        Assert.That(sevenZip.ExitCode, Is.Zero, sevenZip.ToString());
        Assert.That(ReadWithPython(path), Is.EquivalentTo(expected));

        var ours = TarFormat.Instance.ReadIndex(path);
        Assert.That(ours.Entries.Where(e => expected.ContainsKey(e.Name!)).Select(e => e.Name), Is.EquivalentTo(expected.Keys));
    }

    /// <summary>Regular members (name → sha256) as Python's tarfile reads them.</summary>
    private static Dictionary<string, string> ReadWithPython(string path)
    {
        var result = ExternalTool.Python("""
import tarfile, hashlib, json, sys
with tarfile.open(sys.argv[1]) as t:
    print(json.dumps({m.name: hashlib.sha256(t.extractfile(m).read()).hexdigest() for m in t.getmembers() if m.isfile()}))
""", path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return JsonSerializer.Deserialize<Dictionary<string, string>>(result.StdOut)!;
    }

    internal static void Python(string script, string path)
    {
        var result = ExternalTool.Python(script, path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
    }

    private EntryChange Change(string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(_dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);

    internal static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        TarFormat.Instance.Build(TarFormat.Instance.ReadIndex(original), new ArchivePatch(changes));
}
