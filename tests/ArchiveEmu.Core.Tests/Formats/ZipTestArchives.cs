using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Zip;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>ZIP originals made by independent writers (Python's zipfile, Info-ZIP zip, 7-Zip), and independent checks of built ones.</summary>
internal static class ZipTestArchives
{
    /// <summary>Writers: Python (seekable; streamed, so with data descriptors; each with zip64 local headers forced), Info-ZIP, 7-Zip.</summary>
    public static readonly string[] Kinds = ["python", "python-zip64", "streamed", "streamed-zip64", "info-zip", "7z"];

    private const string MakeScript = """
import zipfile, sys, os, subprocess
path, kind = sys.argv[1], sys.argv[2]
entries = [('a.dds', bytes(range(256)) * 12, zipfile.ZIP_STORED), ('sub/b.dds', b'B' * 700, zipfile.ZIP_DEFLATED),
           ('c.txt', b'hello\n' * 50, zipfile.ZIP_DEFLATED), ('empty.bin', b'', zipfile.ZIP_STORED), ('plain.txt', b'plain', zipfile.ZIP_DEFLATED)]
if kind in ('info-zip', '7z'):
    src = path + '.src'
    os.makedirs(os.path.join(src, 'sub'))
    for name, data, _ in entries:
        open(os.path.join(src, name), 'wb').write(data)
    cmd = ['zip', '-q', '-r', path, '.'] if kind == 'info-zip' else ['7z', 'a', '-tzip', '-bd', '-bso0', path, '*']
    subprocess.run(cmd, cwd=src, check=True)
    sys.exit(0)

class Unseekable:
    def __init__(self, f): self.f = f
    def write(self, b): return self.f.write(b)
    def flush(self): self.f.flush()

with open(path, 'wb') as raw:
    with zipfile.ZipFile(Unseekable(raw) if kind.startswith('streamed') else raw, 'w') as z:
        z.comment = b'original comment'
        z.mkdir('sub')
        for name, data, method in entries:
            info = zipfile.ZipInfo(name, (2001, 9, 9, 1, 46, 40))
            info.compress_type = method
            with z.open(info, 'w', force_zip64=kind.endswith('zip64')) as w:
                w.write(data)
""";

    /// <summary>
    /// Tests the archive (testzip), checks the layout (every local header in bounds and signed, no two
    /// entries' bytes overlapping) and prints its files as name → sha256.
    /// </summary>
    private const string ReadScript = """
import zipfile, hashlib, json, struct, sys
f = open(sys.argv[1], 'rb')
def at(offset, count):
    f.seek(offset)
    return f.read(count)
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    assert bad is None, 'CRC error in %s' % bad
    spans = []
    for i in z.infolist():
        o = i.header_offset
        assert 0 <= o and o + 30 <= z.start_dir, 'local header of %s out of bounds' % i.filename
        header = at(o, 30)
        assert header[:4] == b'PK\x03\x04', 'no local header for %s' % i.filename
        n, e = struct.unpack_from('<HH', header, 26)
        spans.append((o, o + 30 + n + e + i.compress_size, i.filename))
    spans.sort()
    for (s1, e1, n1), (s2, e2, n2) in zip(spans, spans[1:]):
        assert e1 <= s2, '%s overlaps %s' % (n1, n2)
    assert not spans or spans[-1][1] <= z.start_dir, 'last entry runs into the central directory'
    print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir()}))
""";

    /// <summary>Makes the original of <paramref name="kind"/> in <paramref name="dir"/>.</summary>
    public static string MakeOriginal(TempDirectory dir, string kind)
    {
        var path = dir[$"original-{kind}.zip"];
        // The script runs Info-ZIP or 7-Zip itself: require it here, so a machine without it skips naming the package.
        if (kind == "info-zip")
            ExternalTool.Require("zip");
        else if (kind == "7z")
            ExternalTool.Require("7z");
        Python(MakeScript, path, kind);
        return path;
    }

    /// <summary>Materialises the archive to a new file for the external readers.</summary>
    public static string Write(TempDirectory dir, EmulatedArchive archive) => dir.Write($"built-{Guid.NewGuid():N}.zip", AfsTests.Materialise(archive));

    /// <summary>A replace-or-add of <paramref name="name"/> with a loose file holding <paramref name="bytes"/>.</summary>
    public static EntryChange Change(TempDirectory dir, string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    public static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        ZipFormat.Instance.Build(ZipFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    /// <summary>Files of the archive (name → sha256) as Python's zipfile reads them, after its CRC test and layout checks.</summary>
    public static Dictionary<string, string> ReadWithPython(string path)
    {
        var result = ExternalTool.Python(ReadScript, path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return JsonSerializer.Deserialize<Dictionary<string, string>>(result.StdOut)!;
    }

    private const string RecordsScript = """
import zipfile, struct, json, sys
data = open(sys.argv[1], 'rb').read()
out = []
for i in zipfile.ZipFile(sys.argv[1]).infolist():
    n, e = struct.unpack_from('<HH', data, i.header_offset + 26)
    start = i.header_offset + 30 + n + e
    end = start + i.compress_size
    if i.flag_bits & 8:
        extra = data[i.header_offset + 30 + n:start]
        zip64, k = False, 0
        while k + 4 <= len(extra):
            tag, length = struct.unpack_from('<HH', extra, k)
            zip64, k = zip64 or tag == 1, k + 4 + length
        signed = data[end:end + 4] == b'PK\x07\x08'
        end += (4 if signed else 0) + 4 + (16 if zip64 else 8)
    out.append({'name': i.filename, 'header': i.header_offset, 'data': start, 'size': i.compress_size, 'end': end})
print(json.dumps(out))
""";

    /// <summary>One entry as Python's zipfile places it: local header, data start, stored size and the end of its record (descriptor included).</summary>
    public sealed record Record(string Name, long Header, long Data, long Size, long End);

    /// <summary>Every entry of the archive (directories included), in central directory order, as Python's zipfile reads it.</summary>
    public static Record[] RecordsWithPython(string path)
    {
        var result = ExternalTool.Python(RecordsScript, path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return JsonSerializer.Deserialize<Record[]>(result.StdOut, new JsonSerializerOptions { PropertyNameCaseInsensitive = true })!;
    }

    /// <summary>
    /// unzip -t, 7z t and bsdtar must all accept the archive; Python must see exactly <paramref name="expected"/>.
    /// <paramref name="sevenZip"/> false skips 7z, which does not open a zip that starts with gigabytes of other bytes.
    /// </summary>
    public static void CheckWithIndependentReaders(string path, Dictionary<string, string> expected, bool sevenZip = true)
    {
        var unzip = ExternalTool.Run("unzip", "-t", "-qq", path);
        Assert.That(unzip.ExitCode, Is.Zero, "unzip -t: " + unzip);
        if (sevenZip)
        {
            var test = ExternalTool.Run("7z", "t", path);
            Assert.That(test.ExitCode, Is.Zero, "7z t: " + test);
        }
        var bsdtar = ExternalTool.Run("bsdtar", "-xOf", path);
        Assert.That(bsdtar.ExitCode, Is.Zero, "bsdtar: " + bsdtar);
        Assert.That(ReadWithPython(path), Is.EquivalentTo(expected));
    }

    public static void Python(string script, params string[] args)
    {
        var result = ExternalTool.Python(script, args);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
    }

    public static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
