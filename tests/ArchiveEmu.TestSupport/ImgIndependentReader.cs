using System.Text.Json;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// Re-reads a GTA IMG v2 file with a Python reader written from the format facts. Fails on any
/// structural problem (data inside the directory or past EOF, overlapping entries, a name without
/// its NUL, a non-zero second size field) and returns every record's name, sector offset, sector
/// count and the sha256 of its size·2048 bytes, in directory order.
/// </summary>
public static class ImgIndependentReader
{
    private const string Script = """
import hashlib, json, struct, sys
data = open(sys.argv[1], 'rb').read()
assert data[:4] == b'VER2', 'magic'
n = struct.unpack_from('<I', data, 4)[0]
dir_end = 8 + 32 * n
assert dir_end <= len(data), 'directory past EOF'
entries = []
for i in range(n):
    off, size, streaming = struct.unpack_from('<IHH', data, 8 + 32 * i)
    raw = data[8 + 32 * i + 8: 8 + 32 * i + 32]
    assert b'\0' in raw, 'name of entry %d has no NUL' % i
    name = raw.split(b'\0')[0].decode('ascii')
    assert name, 'empty name at %d' % i
    assert streaming == 0, 'second size field of %s is %d' % (name, streaming)
    start, end = off * 2048, (off + size) * 2048
    if size:
        assert start >= dir_end, '%s starts inside the directory' % name
        assert end <= len(data), '%s runs past EOF' % name
    entries.append({'name': name, 'sector': off, 'sectors': size, 'sha256': hashlib.sha256(data[start:end]).hexdigest()})
spans = sorted((e['sector'], e['sector'] + e['sectors'], e['name']) for e in entries if e['sectors'])
for a, b in zip(spans, spans[1:]):
    assert a[1] <= b[0], '%s overlaps %s' % (a[2], b[2])
print(json.dumps(entries))
""";

    public sealed record Entry(string Name, long Sector, long Sectors, string Sha256);

    public static IReadOnlyList<Entry> Read(string path)
    {
        var result = ExternalTool.Python(Script, path);
        Assert.That(result.ExitCode, Is.Zero, $"independent IMG reader rejected {path}: {result}");
        return Parse(result.StdOut);
    }

    /// <summary>Reads many files in one Python start-up: per file its entries, or null where the reader rejects it.</summary>
    public static IReadOnlyList<Entry>?[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(Script, paths.Select(p => new[] { p }).ToArray())
            .Select(r => r.ExitCode == 0 ? Parse(r.StdOut) : null).ToArray();

    private static Entry[] Parse(string output) =>
        JsonSerializer.Deserialize<Entry[]>(output, new JsonSerializerOptions { PropertyNameCaseInsensitive = true })!;
}
