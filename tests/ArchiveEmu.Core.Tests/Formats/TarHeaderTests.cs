using System.Text;
using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Tar;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The headers the tar builder writes, block by block as POSIX ustar and pax define them (name 0–99, mode 100, uid 108,
/// gid 116, size 124, mtime 136, type 156, magic 257, version 263, prefix 345), walked by this test's own reader and read
/// back by Python's tarfile. Inputs of 8 GiB come from a virtual file of zeros: only the headers are ever read.
/// </summary>
public sealed class TarHeaderTests
{
    private const long MaxOctalSize = (8L << 30) - 1; // 11 octal digits in the 12-byte size field
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("tar-headers");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Build_AnAddedFile_GetsAUstarHeaderWithMode0644OwnerRootAndTheFilesTime()
    {
        var original = MakeOriginal("USTAR_FORMAT");
        var file = _dir.Write("mod/added.bin", TestData.Random(1, 700));
        var mtime = new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc);
        File.SetLastWriteTimeUtc(file, mtime);
        using var archive = Build(original, new EntryChange(EntryKey.ByName("new/added.dds"), EntryInput.FromFile(file), "mod"));

        var bytes = AfsTests.Materialise(archive);
        var header = Blocks(bytes).Single(b => b.Name == "new/added.dds");
        var h = bytes.AsSpan(header.At, 512);
        Assert.That(Field(h, 100, 8), Is.EqualTo("0000644\0"), "mode");
        Assert.That(Field(h, 108, 8), Is.EqualTo("0000000\0"), "uid");
        Assert.That(Field(h, 116, 8), Is.EqualTo("0000000\0"), "gid");
        Assert.That(Field(h, 124, 12), Is.EqualTo(Convert.ToString(700, 8).PadLeft(11, '0') + "\0"), "size");
        Assert.That(Field(h, 136, 12), Is.EqualTo(Convert.ToString(1714979289L, 8).PadLeft(11, '0') + "\0"), "mtime");
        Assert.That((char)h[156], Is.EqualTo('0'), "a regular file");
        Assert.That(Field(h, 257, 8), Is.EqualTo("ustar\u000000"), "POSIX magic and version");
        Assert.That(Field(h, 345, 155), Is.EqualTo(new string('\0', 155)), "no prefix");

        var python = Members(bytes, "new/added.dds");
        Assert.That(python.Last(), Is.EqualTo("new/added.dds 700 0o644 0 0 1714979289 0 {}"));
        Assert.That(archive.Entries.Select(e => $"{e.Index} {e.Name} {e.Size} {e.State}").Last(), Is.EqualTo("5 new/added.dds 700 Added"));
    }

    [Test]
    public void Build_AFileFromMemory_IsDatedTheEpoch()
    {
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original, new EntryChange(EntryKey.ByName("mem.bin"), EntryInput.FromBytes(new byte[] { 1, 2 }), "code"));
        var bytes = AfsTests.Materialise(archive);
        var header = Blocks(bytes).Single(b => b.Name == "mem.bin");
        Assert.That(Field(bytes.AsSpan(header.At, 512), 136, 12), Is.EqualTo("00000000000\0"));
    }

    // ustar's name holds 100 bytes; a longer path splits at a '/' into prefix (up to 155) and name (1 to 100);
    // what cannot split gets a pax "path" record and the truncated name.
    [TestCase(100, null, null)]
    [TestCase(101, null, "pax")]
    [TestCase(155, 100, null)]
    [TestCase(156, 100, "pax")]
    [TestCase(155, 101, "pax")]
    [TestCase(20, 100, null)]
    public void Build_AnAddedLongPath_SplitsIntoPrefixAndNameOrGetsAPaxPath(int first, int? second, string? pax)
    {
        string name = second is null ? new string('n', first) : new string('p', first) + "/" + new string('n', second.Value);
        CheckAddedName(name, pax is null ? second is null ? ("", name) : (new string('p', first), new string('n', second!.Value)) : null);
    }

    [Test]
    public void Build_APathWhoseLastSlashLeavesTooLongAPrefix_SplitsAtAnEarlierSlash()
    {
        string prefix = new('a', 100), rest = new string('b', 60) + "/c.dds";
        CheckAddedName(prefix + "/" + rest, (prefix, rest));
    }

    [Test]
    public void Build_APaxHeader_IsNamedPaxHeaderSlashTheFileName()
    {
        string name = "deep/" + new string('x', 120) + ".dds";
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original, new EntryChange(EntryKey.ByName(name), EntryInput.FromBytes(new byte[] { 9 }), "mod"));
        var blocks = Blocks(AfsTests.Materialise(archive));
        var pax = blocks[^2];
        Assert.That((pax.Type, pax.Name), Is.EqualTo(('x', "PaxHeader/" + new string('x', 100 - "PaxHeader/".Length))), "truncated to 100 bytes");
        Assert.That((blocks[^1].Type, blocks[^1].Name), Is.EqualTo(('0', name[..100])), "the name field holds the path's first 100 bytes");
    }

    [TestCase(MaxOctalSize, false)]
    [TestCase(MaxOctalSize + 1, true)]
    [TestCase(9L << 30, true)]
    public void Build_AnAddedInputOf8GiB_CarriesItsSizeInAPaxRecord(long size, bool pax)
    {
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original, new EntryChange(EntryKey.ByName("huge.bin"), Zeros(size), "mod"));
        Assert.That(Members(Head(archive), "huge.bin").Last(), Is.EqualTo($"huge.bin {size} 0o644 0 0 0 0 {(pax ? "{'size': '" + size + "'}" : "{}")}"));
    }

    [TestCase(MaxOctalSize, false)]
    [TestCase(MaxOctalSize + 1, true)]
    public void Build_AMemberReplacedBy8GiB_CarriesItsSizeInAPaxRecord(long size, bool pax)
    {
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original, new EntryChange(EntryKey.ByName("a.dds"), Zeros(size), "mod"));
        Assert.That(Members(Head(archive), "a.dds").Last(), Is.EqualTo($"a.dds {size} 0o600 1 2 1000000 0 {(pax ? "{'size': '" + size + "'}" : "{}")}"));
        Assert.That(archive.Entries.Select(e => $"{e.Index} {e.Name} {e.Size} {e.State}"),
            Is.EqualTo(new[] { "0 sub/ 0 Original", $"1 a.dds {size} Replaced", "2 b.dds 700 Original", "3 c.txt 6 Original", "4 link.dds 0 Original" }));
    }

    [Test]
    public void Build_AChangeByIndex_IsRefusedSayingTarEntriesAreNamed()
    {
        var original = MakeOriginal("USTAR_FORMAT");
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByIndex(3), EntryInput.FromBytes(new byte[] { 1 }), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("tar entries are addressed by name; '3' (from mod) is not one"));
    }

    [Test]
    public void WriteOctal_AValueWithMoreDigitsThanTheField_IsRefusedNotCut()
    {
        var field = new byte[12];
        TarHeader.WriteOctal(field, MaxOctalSize);
        Assert.That(Encoding.ASCII.GetString(field), Is.EqualTo("77777777777\0"));
        Assert.That(() => TarHeader.WriteOctal(field, MaxOctalSize + 1), Throws.InstanceOf<ArgumentOutOfRangeException>()
            .With.Message.Contains("8589934592 needs 12 octal digits; the field holds 11"));
    }

    [Test]
    public void Build_AMemberWithItsOwnPaxSize_IsReplacedWithTheNewSizeAndKeepsItsOtherRecords()
    {
        var original = _dir["pax-size.tar"];
        Python("""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    for name, data, pax in [('a.dds', b'A' * 5, {'size': '5', 'comment': 'kept'}), ('b.dds', b'B' * 9, {})]:
        info = tarfile.TarInfo(name); info.size = len(data); info.pax_headers = pax
        t.addfile(info, io.BytesIO(data))
""", original);
        var bigger = TestData.Random(2, 7000);
        using var archive = Build(original, new EntryChange(EntryKey.ByName("a.dds"), EntryInput.FromBytes(bigger), "mod"));
        var path = _dir.Write("built.tar", AfsTests.Materialise(archive));
        var python = ExternalTool.Python("""
import tarfile, sys, hashlib
with tarfile.open(sys.argv[1]) as t:
    for m in t.getmembers():
        print(m.name, m.size, sorted(m.pax_headers.items()), hashlib.sha256(t.extractfile(m).read()).hexdigest())
""", path);
        Assert.That(python.StdOut.Trim().Split('\n'), Is.EqualTo(new[]
        {
            $"a.dds 7000 [('comment', 'kept')] {AfsIndependentReader.Sha256(bigger)}",
            $"b.dds 9 [] {AfsIndependentReader.Sha256(Encoding.ASCII.GetBytes(new string('B', 9)))}",
        }), python.ToString());
    }

    [Test]
    public void Build_AGnuLongNameReplaced_IsPrecededByALongLinkRecord()
    {
        string name = "textures/" + new string('l', 120) + "/deep.dds";
        var original = _dir["gnu.tar"];
        Python($$"""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT) as t:
    info = tarfile.TarInfo('{{name}}'); info.size = 4
    t.addfile(info, io.BytesIO(b'LLLL'))
""", original);
        using var archive = Build(original, new EntryChange(EntryKey.ByName(name), EntryInput.FromBytes(new byte[] { 1, 2, 3 }), "mod"));
        var blocks = Blocks(AfsTests.Materialise(archive));
        Assert.That(blocks.Select(b => (b.Type, b.Name, b.Size)), Is.EqualTo(new[]
        {
            ('L', "././@LongLink", (long)name.Length + 1),
            ('0', name[..100], 3L),
        }));
    }

    [Test]
    public void Build_MembersReplacedAndAddedWithShortNames_AddNoExtensionRecords()
    {
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original,
            new EntryChange(EntryKey.ByName("a.dds"), EntryInput.FromBytes(new byte[] { 1 }), "mod"),
            new EntryChange(EntryKey.ByName("z.dds"), EntryInput.FromBytes(new byte[] { 2 }), "mod"));
        var bytes = AfsTests.Materialise(archive);
        Assert.That(Blocks(bytes).Select(b => $"{b.Type} {b.Name}"),
            Is.EqualTo(new[] { "5 sub/", "0 a.dds", "0 b.dds", "0 c.txt", "2 link.dds", "0 z.dds" }));
        Assert.That(bytes.Length, Is.EqualTo(512 * (6 + 1 + 2 + 1 + 1) + 1024), "six headers, data blocks 1+2+1+1, two zero blocks");
    }

    private void CheckAddedName(string name, (string Prefix, string Name)? ustar)
    {
        var original = MakeOriginal("USTAR_FORMAT");
        using var archive = Build(original, new EntryChange(EntryKey.ByName(name), EntryInput.FromBytes(new byte[] { 7 }), "mod"));
        var bytes = AfsTests.Materialise(archive);
        var added = Blocks(bytes)[5..];
        if (ustar is { } split)
            Assert.That(added.Select(b => (b.Type, b.Prefix, b.Name)), Is.EqualTo(new[] { ('0', split.Prefix, split.Name) }));
        else
            Assert.That(added.Select(b => b.Type), Is.EqualTo(new[] { 'x', '0' }), "a pax header, then the file");
        Assert.That(Members(bytes, name).Last(), Does.StartWith(name + " 1 "), "Python reads the whole path");
    }

    private sealed record Block(int At, char Type, string Prefix, string Name, long Size);

    /// <summary>Walks the headers: each one's data follows it, padded to 512 bytes; two zero blocks end the archive.</summary>
    private static List<Block> Blocks(byte[] tar)
    {
        var blocks = new List<Block>();
        for (int at = 0; at + 512 <= tar.Length && tar[at] != 0;)
        {
            var h = tar.AsSpan(at, 512);
            long size = Convert.ToInt64(Field(h, 124, 12).TrimEnd('\0', ' '), 8);
            blocks.Add(new(at, (char)h[156], Field(h, 345, 155).TrimEnd('\0'), Field(h, 0, 100).TrimEnd('\0'), size));
            at += 512 + (int)((size + 511) / 512 * 512);
        }
        return blocks;
    }

    private static string Field(ReadOnlySpan<byte> header, int at, int length) => Encoding.UTF8.GetString(header.Slice(at, length));

    /// <summary>"name size mode uid gid mtime type pax" for each member up to <paramref name="last"/>, as Python's tarfile reads them.</summary>
    private string[] Members(byte[] tar, string last)
    {
        var path = _dir.Write($"members-{Guid.NewGuid():N}.tar", tar);
        var python = ExternalTool.Python("""
import tarfile, sys
t = tarfile.open(sys.argv[1], 'r:')
while True:
    m = t.next()
    print(m.name, m.size, oct(m.mode), m.uid, m.gid, m.mtime, m.type.decode(), dict(m.pax_headers))
    if m.name == sys.argv[2]:
        break
""", path, last);
        Assert.That(python.ExitCode, Is.Zero, python.ToString());
        return python.StdOut.Trim().Split('\n');
    }

    /// <summary>The emulated archive's first 64 KiB: every header before a huge member's data.</summary>
    private static byte[] Head(EmulatedArchive archive)
    {
        var head = new byte[64 * 1024];
        archive.File.ReadExactly(0, head);
        return head;
    }

    private static EntryInput Zeros(long size) => ZeroInputs.Of(size);

    private string MakeOriginal(string format)
    {
        var path = _dir[$"original-{format}.tar"];
        Python($$"""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.{{format}}) as t:
    d = tarfile.TarInfo('sub'); d.type = tarfile.DIRTYPE; d.mode = 0o755
    t.addfile(d)
    for name, data in [('a.dds', b'A' * 3000), ('b.dds', b'B' * 700), ('c.txt', b'hello\n')]:
        info = tarfile.TarInfo(name); info.size = len(data); info.mtime = 1000000; info.mode = 0o600; info.uid = 1; info.gid = 2
        t.addfile(info, io.BytesIO(data))
    s = tarfile.TarInfo('link.dds'); s.type = tarfile.SYMTYPE; s.linkname = 'a.dds'
    t.addfile(s)
""", path);
        return path;
    }

    private static void Python(string script, string path) => TarTests.Python(script, path);

    private static EmulatedArchive Build(string original, params EntryChange[] changes) => TarTests.Build(original, changes);
}
