using System.Text.Json;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// Re-reads an AWB (AFS2) file with a Python reader written from the format facts. Fails on any
/// structural problem (positions out of order or past EOF, pos[0] not the table end, pos[n] not the
/// file size, an entry ending before its aligned start, non-zero padding, ids not ascending) and
/// returns the header fields and every entry's id, aligned start, size and sha256.
/// </summary>
public static class AwbIndependentReader
{
    private const string Script = """
import hashlib, json, struct, sys
data = open(sys.argv[1], 'rb').read()
assert data[:4] == b'AFS2', 'magic'
version, pw, iw = data[4], data[5], data[6]
assert pw in (2, 4, 8) and iw in (2, 4), 'widths %d %d' % (pw, iw)
n, align, subkey = struct.unpack_from('<IHH', data, 8)
fmt = {2: 'H', 4: 'I', 8: 'Q'}
ids = list(struct.unpack_from('<%d%s' % (n, fmt[iw]), data, 16))
pos = list(struct.unpack_from('<%d%s' % (n + 1, fmt[pw]), data, 16 + n * iw))
assert pos[0] == 16 + n * iw + (n + 1) * pw, 'pos[0] %d is not the table end' % pos[0]
assert pos[n] == len(data), 'pos[n] %d is not the file size %d' % (pos[n], len(data))
assert all(a < b for a, b in zip(ids, ids[1:])), 'ids not ascending'
a = max(align, 1)
entries = []
for i in range(n):
    assert pos[i] <= pos[i + 1], 'positions decrease at %d' % i
    start = (pos[i] + a - 1) // a * a
    assert start <= pos[i + 1], 'entry %d ends before its aligned start' % i
    pad = data[pos[i]:start]
    assert pad.count(0) == len(pad), 'padding before entry %d is not zeros' % i
    body = data[start:pos[i + 1]]
    entries.append({'id': ids[i], 'offset': start, 'size': len(body), 'sha256': hashlib.sha256(body).hexdigest()})
print(json.dumps({'version': version, 'positionWidth': pw, 'idWidth': iw, 'alignment': align, 'subkey': subkey, 'entries': entries}))
""";

    public sealed record Entry(long Id, long Offset, long Size, string Sha256);

    public sealed record Archive(int Version, int PositionWidth, int IdWidth, int Alignment, int Subkey, Entry[] Entries);

    public static Archive Read(string path)
    {
        var result = ExternalTool.Python(Script, path);
        Assert.That(result.ExitCode, Is.Zero, $"independent AWB reader rejected {path}: {result}");
        return Parse(result.StdOut);
    }

    /// <summary>Reads many files in one Python start-up: per file its entries, or null where the reader rejects it.</summary>
    public static Archive?[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(Script, paths.Select(p => new[] { p }).ToArray())
            .Select(r => r.ExitCode == 0 ? Parse(r.StdOut) : null).ToArray();

    private static Archive Parse(string output) =>
        JsonSerializer.Deserialize<Archive>(output, new JsonSerializerOptions { PropertyNameCaseInsensitive = true })!;
}
