using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using static ArchiveEmu.Core.Tests.Formats.ZipTestArchives;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// What a built ZIP's central directory keeps of the original's records, as Python's zipfile reads both: each entry's
/// extra fields and comment (names and extras past 255 bytes included), its times and attributes; a replaced entry
/// drops its AES block (its data is now stored plain); an added one is flagged UTF-8 only when its name needs it.
/// </summary>
public sealed class ZipCentralRecordTests
{
    private TempDirectory _dir = null!;
    private static readonly string LongName = "d/" + new string('n', 300) + ".dds";

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("zip-central");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private const string Describe = """
import zipfile, sys, hashlib
with zipfile.ZipFile(sys.argv[1]) as z:
    for i in z.infolist():
        print('|'.join(str(v) for v in (i.filename, i.date_time, i.create_system, hex(i.external_attr), i.flag_bits & 0x800, i.extra.hex(),
              i.comment.decode(), hashlib.sha256(z.read(i)).hexdigest()[:16])))
""";

    [Test]
    public void Build_UnchangedEntries_KeepTheirExtrasCommentsTimesAndAttributes_AndAReplacedOneDropsItsAesBlock()
    {
        var original = _dir["original.zip"];
        Python($$"""
import zipfile, struct, sys
cafe = lambda n: struct.pack('<HH', 0xCAFE, n) + bytes(k % 251 for k in range(n))
aes = struct.pack('<HHH2sBH', 0x9901, 7, 2, b'AE', 3, 0)
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for name, data, extra, comment, attr in [
            ('keep.dds', b'K' * 50, cafe(300), b'kept comment', 0x20),
            ('{{LongName}}', b'L' * 10, b'', b'long', 0o100600 << 16),
            ('aes.dds', b'A' * 20, aes + cafe(4), b'aes', 0),
            ('plain.dds', b'P' * 5, aes, b'', 0)]:
        zi = zipfile.ZipInfo(name, (2001, 2, 3, 4, 5, 6)); zi.extra = extra; zi.comment = comment; zi.external_attr = attr
        z.writestr(zi, data)
""", original);
        var before = Lines(original);
        using var archive = Build(original, new EntryChange(EntryKey.ByName("aes.dds"), EntryInput.FromBytes(new byte[] { 1, 2, 3 }), "mod"));
        var after = Lines(Write(_dir, archive));

        Assert.That(after.Where(l => !l.StartsWith("aes.dds|", StringComparison.Ordinal)),
            Is.EqualTo(before.Where(l => !l.StartsWith("aes.dds|", StringComparison.Ordinal))), "unchanged entries as they were");
        var replaced = after.Single(l => l.StartsWith("aes.dds|", StringComparison.Ordinal)).Split('|');
        Assert.That(replaced[5], Is.EqualTo("feca0400" + "00010203"), "the replaced entry keeps its other extra, not the AES block");
        Assert.That(replaced[6], Is.EqualTo("aes"), "and its comment");
        Assert.That(archive.Entries.Select(e => $"{e.Index} {e.Name} {e.Size} {e.State} {e.Origin}"), Is.EqualTo(new[]
        {
            "0 keep.dds 50 Original original", $"1 {LongName} 10 Original original", "2 aes.dds 3 Replaced mod", "3 plain.dds 5 Original original",
        }));
    }

    [Test]
    public void Build_AddedNames_AreFlaggedUtf8OnlyWhenTheyAreNotAscii()
    {
        var original = MakeOriginal(_dir, "python");
        using var archive = Build(original,
            new EntryChange(EntryKey.ByName("ascii.bin"), EntryInput.FromBytes(new byte[] { 1 }), "mod"),
            new EntryChange(EntryKey.ByName("ünï/名前.bin"), EntryInput.FromBytes(new byte[] { 2 }), "mod"));
        var lines = Lines(Write(_dir, archive));
        Assert.That(lines.Single(l => l.StartsWith("ascii.bin|", StringComparison.Ordinal)).Split('|')[4], Is.EqualTo("0"));
        Assert.That(lines.Single(l => l.StartsWith("ünï/名前.bin|", StringComparison.Ordinal)).Split('|')[4], Is.EqualTo("2048"));
    }

    [Test]
    public void Build_InputsFromMemoryAndFromAnEmulatedFile_GetTheirOwnCrc()
    {
        // Two inputs no file backs: bytes in memory, and a virtual file (an inner archive) read in chunks of 1 MiB.
        var original = MakeOriginal(_dir, "python");
        var memory = TestData.Random(1, 1000);
        var inner = TestData.Random(2, (1 << 20) + 4097);
        using var file = new VirtualFileBuilder().AppendBytes(inner).Build();
        using var archive = Build(original,
            new EntryChange(EntryKey.ByName("a.dds"), EntryInput.FromBytes(memory), "code"),
            new EntryChange(EntryKey.ByName("inner.bin"), EntryInput.FromVirtualFile(file, "inner"), "code"));
        var expected = ReadWithPython(original);
        expected["a.dds"] = Sha(memory);
        expected["inner.bin"] = Sha(inner);
        Assert.That(ReadWithPython(Write(_dir, archive)), Is.EquivalentTo(expected), "Python checks each entry's CRC as it reads it");
    }

    private static string[] Lines(string zip)
    {
        var python = ExternalTool.Python(Describe, zip);
        Assert.That(python.ExitCode, Is.Zero, python.ToString());
        return python.StdOut.TrimEnd('\n').Split('\n');
    }
}
