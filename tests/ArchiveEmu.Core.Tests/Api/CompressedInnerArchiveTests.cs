using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// A mod path through a ZIP entry stored deflated (docs/DESIGN.md, "Archives inside archives"): the inner tar is decoded
/// once — into the cache folder, reused by the next open; or, with no cache or a read-only one, into a private temporary
/// file — and the ZIP is served with that entry stored as is, read back by Python's zipfile and tarfile.
/// </summary>
public sealed class CompressedInnerArchiveTests
{
    private TempDirectory _dir = null!;
    private string _zip = null!;

    private static readonly byte[] Kept = DotNetArchiveWriters.Repeat(Encoding.ASCII.GetBytes("kept as it was "), 300);
    private static readonly byte[] Replaced = TestData.Random(21, 3000);

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("compressed-inner");
        Directory.CreateDirectory(_dir["game/data"]);
        Directory.CreateDirectory(_dir["tar"]);
        DotNetArchiveWriters.WriteTar(_dir["tar/inner.tar"], ("a.txt", Kept), ("b.bin", TestData.Random(22, 2000)));
        _zip = _dir["game/data/pack.zip"];
        DotNetArchiveWriters.WriteZip(_zip, ("inner.tar", File.ReadAllBytes(_dir["tar/inner.tar"]), true), ("z.txt", Kept, true));
        _dir.Write("mod/data/pack.zip/inner.tar/b.bin", Replaced);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void WithACache_TheInnerArchiveIsDecodedOnce_AndTheNextOpenReusesIt()
    {
        int before = DecodedEntries.DecodesOf(_zip);
        CheckServed(Serve(_dir["cache"]));
        CheckServed(Serve(_dir["cache"]));
        Assert.That(DecodedEntries.DecodesOf(_zip) - before, Is.EqualTo(1));
        Assert.That(Directory.GetFiles(Path.Combine(_dir["cache"], DecodedEntries.FolderName), "*.bin"), Has.Length.EqualTo(1));
    }

    [Test]
    public void AChangedOuterArchive_IsDecodedAgain()
    {
        int before = DecodedEntries.DecodesOf(_zip);
        CheckServed(Serve(_dir["cache"]));
        File.SetLastWriteTimeUtc(_zip, File.GetLastWriteTimeUtc(_zip).AddSeconds(-5)); // same bytes, another version
        CheckServed(Serve(_dir["cache"]));
        Assert.That(DecodedEntries.DecodesOf(_zip) - before, Is.EqualTo(2));
    }

    [Test]
    public void CacheGc_DeletesADecodedEntryUnusedForLongerThanMaxAge_AndClearDeletesAll()
    {
        CheckServed(Serve(_dir["cache"]));
        var decoded = Path.Combine(_dir["cache"], DecodedEntries.FolderName);
        var cache = new ArchiveEmu.Core.MergedCache.MergedFileCache(_dir["cache"]);
        cache.Collect(TimeSpan.FromDays(1));
        Assert.That(Directory.GetFiles(decoded, "*.bin"), Has.Length.EqualTo(1));
        File.SetLastWriteTimeUtc(Directory.GetFiles(decoded, "*.used").Single(), DateTime.UtcNow.AddDays(-2));
        cache.Collect(TimeSpan.FromDays(1));
        Assert.That(Directory.GetFiles(decoded), Is.Empty);

        CheckServed(Serve(_dir["cache"]));
        cache.Clear();
        Assert.That(Directory.GetFiles(decoded), Is.Empty);
    }

    [Test]
    public void ADeflatedZipInsideADeflatedZip_IsDecodedAtEachLevel()
    {
        DotNetArchiveWriters.WriteZip(_dir["tar/inner.zip"], ("inner.tar", File.ReadAllBytes(_dir["tar/inner.tar"]), true));
        File.Delete(_zip);
        DotNetArchiveWriters.WriteZip(_zip, ("inner.zip", File.ReadAllBytes(_dir["tar/inner.zip"]), true), ("z.txt", Kept, true));
        Directory.CreateDirectory(_dir["mod/data/pack.zip/inner.zip"]);
        Directory.Move(_dir["mod/data/pack.zip/inner.tar"], _dir["mod/data/pack.zip/inner.zip/inner.tar"]);
        int before = DecodedEntries.DecodesOf(_zip);
        var middle = _dir.Write("middle.zip", Unzip(Serve(cacheFolder: null), "inner.zip"));
        var tar = _dir.Write("inner.tar", Unzip(File.ReadAllBytes(middle), "inner.tar"));
        using var reader = new System.Formats.Tar.TarReader(File.OpenRead(tar));
        Assert.That(Members(reader), Is.EqualTo(new[] { ("a.txt", Kept), ("b.bin", Replaced) }));
        Assert.That(DecodedEntries.DecodesOf(_zip) - before, Is.EqualTo(1), "the outer entry once; the inner one is held by the decoded copy");
    }

    private static byte[] Unzip(byte[] zip, string name)
    {
        using var archive = new System.IO.Compression.ZipArchive(new MemoryStream(zip));
        var entry = archive.GetEntry(name)!;
        Assert.That(entry.CompressedLength, Is.EqualTo(entry.Length), $"{name} stored as is");
        using var output = new MemoryStream();
        entry.Open().CopyTo(output);
        return output.ToArray();
    }

    private static List<(string, byte[])> Members(System.Formats.Tar.TarReader reader)
    {
        var members = new List<(string, byte[])>();
        while (reader.GetNextEntry() is { } entry)
        {
            using var data = new MemoryStream();
            entry.DataStream?.CopyTo(data);
            members.Add((entry.Name, data.ToArray()));
        }
        return members;
    }

    [Test]
    public void WithoutACache_TheInnerArchiveIsDecodedIntoAPrivateFile_AndNoFileIsLeftBehind()
    {
        CheckServed(Serve(cacheFolder: null));
        Assert.That(Directory.GetFiles(Path.GetTempPath(), $"archiveemu-decoded-{Environment.ProcessId}-*"), Is.Empty);
    }

    [Test]
    public void WithAReadOnlyCache_ThePrivateFileServesInstead()
    {
        Directory.CreateDirectory(_dir["cache"]);
        using var readOnly = ReadOnlyBindMount.Over(_dir["cache"]);
        CheckServed(Serve(_dir["cache"]));
        Assert.That(Directory.Exists(Path.Combine(_dir["cache"], DecodedEntries.FolderName)), Is.False);
    }

    [Test]
    public void ADecodedCopyOfTheWrongSize_IsDecodedAgainAndReplaced()
    {
        CheckServed(Serve(_dir["cache"]));
        var copy = Directory.GetFiles(Path.Combine(_dir["cache"], DecodedEntries.FolderName), "*.bin").Single();
        long length = new FileInfo(copy).Length;
        using (var file = File.OpenWrite(copy))
            file.SetLength(length / 2); // cut short, as by a full disk or another tool
        int before = DecodedEntries.DecodesOf(_zip);

        CheckServed(Serve(_dir["cache"]));

        Assert.That(DecodedEntries.DecodesOf(_zip) - before, Is.EqualTo(1));
        Assert.That(Directory.GetFiles(Path.Combine(_dir["cache"], DecodedEntries.FolderName), "*.bin"), Is.EqualTo(new[] { copy }));
        Assert.That(new FileInfo(copy).Length, Is.EqualTo(length));
    }

    [Test]
    public void ReusingADecodedCopy_MarksItUsedNow_SoGcAgesItFromItsLastUse()
    {
        CheckServed(Serve(_dir["cache"]));
        var marker = Directory.GetFiles(Path.Combine(_dir["cache"], DecodedEntries.FolderName), "*.used").Single();
        File.SetLastWriteTimeUtc(marker, DateTime.UtcNow.AddDays(-2));

        CheckServed(Serve(_dir["cache"]));

        Assert.That(File.GetLastWriteTimeUtc(marker), Is.GreaterThan(DateTime.UtcNow.AddHours(-1)));
    }

    [Test]
    public void ACacheMadeReadOnlyAfterDecoding_StillServesItsCopy_WithNoDecodeAgain()
    {
        CheckServed(Serve(_dir["cache"]));
        int before = DecodedEntries.DecodesOf(_zip);
        using var readOnly = ReadOnlyBindMount.Over(_dir["cache"]);

        CheckServed(Serve(_dir["cache"]));

        Assert.That(DecodedEntries.DecodesOf(_zip) - before, Is.Zero, "the marker cannot be touched; the copy is used all the same");
    }

    [Test]
    public void ADamagedDeflateStream_IsOneErrorNamingTheFile()
    {
        var bytes = File.ReadAllBytes(_zip);
        int data = 30 + "inner.tar".Length; // the first local header has no extra field: System.IO.Compression writes none
        Assert.That(Encoding.ASCII.GetString(bytes, 30, "inner.tar".Length), Is.EqualTo("inner.tar"));
        bytes[data] = 0x07; // BFINAL 1, BTYPE 3: a block type RFC 1951 reserves
        File.WriteAllBytes(_zip, bytes);
        Assert.That(() => Serve(cacheFolder: null), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(_zip).And.Message.Contains("deflate stream is damaged").And.Message.Not.Contains("\n"));
    }

    private byte[] Serve(string? cacheFolder)
    {
        using var emulator = new ArchiveEmulator(_dir["game"], new ArchiveEmulatorOptions { CacheFolder = cacheFolder });
        emulator.AddModFolder(_dir["mod"]);
        using var file = emulator.Open("data/pack.zip");
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>zipfile reads the served ZIP (CRCs checked), the entry is stored as is, and tarfile finds the inner tar's members.</summary>
    private void CheckServed(byte[] zip)
    {
        var path = _dir.Write($"served-{Guid.NewGuid():N}.zip", zip);
        var result = ExternalTool.Python("""
import hashlib, io, sys, tarfile, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    info = z.getinfo('inner.tar')
    print(info.compress_type, info.file_size == info.compress_size)
    with tarfile.open(fileobj=io.BytesIO(z.read('inner.tar'))) as t:
        for m in t.getmembers():
            print(m.name, hashlib.sha256(t.extractfile(m).read()).hexdigest())
    print('z.txt', hashlib.sha256(z.read('z.txt')).hexdigest())
""", path);
        Assert.That(result.ExitCode, Is.Zero, result.StdErr);
        Assert.That(result.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries), Is.EqualTo(new[]
        {
            "0 True", $"a.txt {Sha(Kept)}", $"b.bin {Sha(Replaced)}", $"z.txt {Sha(Kept)}",
        }));
    }

    private static string Sha(byte[] bytes) => Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(bytes));
}
