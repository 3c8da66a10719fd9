using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;
using static ArchiveEmu.Core.Tests.Formats.ZipTestArchives;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Zip64: more than 65,535 entries, entries past 4 GiB (after a sparse hole), an entry of 4 GiB and more.</summary>
public sealed class ZipZip64Tests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("zip64");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

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
        var python = ExternalTool.Python("import zipfile, sys; z = zipfile.ZipFile(sys.argv[1]); print(len(z.infolist()), z.read('zz.bin').hex())", built);
        Assert.That(python.StdOut.Trim(), Is.EqualTo("65600 010203"), python.ToString());
    }

    [Test]
    public void Build_EntriesPast4GiB_Zip64OffsetsAreReadAndRewrittenForEveryReader()
    {
        // Python puts the zip after a 4 GiB hole and writes absolute offsets: zip64 offset blocks and end records.
        var original = _dir["far.zip"];
        Python($$"""
import zipfile, sys
with open(sys.argv[1], 'wb') as f:
    f.seek({{HugeSize}})
    with zipfile.ZipFile(f, 'w') as z:
        for i in range(4):
            z.writestr(zipfile.ZipInfo('f%d.bin' % i, (2001, 1, 1, 0, 0, 0)), b'far %d' % i * 100, zipfile.ZIP_DEFLATED)
""", original);
        var index = ZipFormat.Instance.ReadIndex(original);
        Assert.That(index.Entries.Select(e => e.Offset), Is.All.GreaterThan(HugeSize));
        var expected = ReadWithPython(original);
        using var archive = Build(original, Change("f1.bin", [1, 1]), Change("g.bin", [2]));
        expected["f1.bin"] = Sha([1, 1]);
        expected["g.bin"] = Sha([2]);
        var built = WriteSparse(archive, holeBelow: HugeSize);
        CheckWithIndependentReaders(built, expected, sevenZip: false); // 7z rejects Python's original too
        Assert.That(ZipFormat.Instance.ReadIndex(built).Entries.Select(e => e.Offset), Is.All.GreaterThan(HugeSize));
    }

    [Test]
    [Explicit("computes the CRC of a 4 GiB input: about 15 s on the CI machine")]
    public void Build_EntryOf4GiBAndMore_WritesZip64SizesAndOffsetsThatReadersFollow()
    {
        var original = MakeOriginal("python");
        var huge = _dir["mod/huge.bin"];
        Directory.CreateDirectory(Path.GetDirectoryName(huge)!);
        using (var file = File.Create(huge))
            file.SetLength(HugeSize); // sparse: zeros that cost no disk
        using var archive = Build(original, new EntryChange(EntryKey.ByName("a.dds"), EntryInput.FromFile(huge), "mod"));
        var built = WriteSparse(archive, zeroInput: huge);

        var ours = ZipFormat.Instance.ReadIndex(built);
        Assert.That(ours.Entries.Single(e => e.Name == "a.dds").Size, Is.EqualTo(HugeSize));
        Assert.That(ours.Entries.Single(e => e.Name == "plain.txt").Offset, Is.GreaterThan(uint.MaxValue));
        foreach (var tool in new[] { ("unzip", "-l"), ("7z", "l") })
        {
            var list = ExternalTool.Run(tool.Item1, tool.Item2, built);
            Assert.That(list.ExitCode, Is.Zero, list.ToString());
        }
        var expected = ReadWithPython(original);
        expected.Remove("a.dds");
        var python = ExternalTool.Python("""
import zipfile, hashlib, json, sys
z = zipfile.ZipFile(sys.argv[1])
assert z.open('a.dds').read(1 << 20) == bytes(1 << 20), 'start of the huge entry'
assert z.getinfo('a.dds').file_size == int(sys.argv[2])
print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir() and i.filename != 'a.dds'}))
""", built, HugeSize.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.That(python.ExitCode, Is.Zero, python.ToString());
        Assert.That(System.Text.Json.JsonSerializer.Deserialize<Dictionary<string, string>>(python.StdOut), Is.EquivalentTo(expected));
    }

    private const long HugeSize = (1L << 32) + 4096;

    /// <summary>Writes the archive leaving holes for what is zeros anyway (an all-zero input, the start of the file): no 4 GiB copy.</summary>
    private string WriteSparse(EmulatedArchive archive, string? zeroInput = null, long holeBelow = 0)
    {
        var path = _dir[$"built-{Guid.NewGuid():N}.zip"];
        using var output = new FileStream(path, FileMode.CreateNew);
        output.SetLength(archive.File.Length);
        foreach (var segment in archive.File.Segments.ToArray())
        {
            if (segment.Source is ArchiveEmu.Core.VirtualFiles.FileSource f && f.Path == zeroInput)
                continue;
            long from = Math.Max(segment.VirtualOffset, holeBelow);
            if (from >= segment.VirtualEnd)
                continue;
            var bytes = new byte[segment.VirtualEnd - from];
            archive.File.ReadExactly(from, bytes);
            output.Position = from;
            output.Write(bytes);
        }
        return path;
    }

    private string MakeOriginal(string kind) => ZipTestArchives.MakeOriginal(_dir, kind);
    private string Write(EmulatedArchive archive) => ZipTestArchives.Write(_dir, archive);
    private EntryChange Change(string name, byte[] bytes) => ZipTestArchives.Change(_dir, name, bytes);
}
