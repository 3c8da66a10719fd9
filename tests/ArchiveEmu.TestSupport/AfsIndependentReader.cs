

namespace ArchiveEmu.TestSupport;

/// <summary>
/// Re-reads an AFS file with a Python reader written from the format facts (AFSLib, the .NET
/// reader we would prefer, is not served here). Prints one line per entry: index, offset, size,
/// name-record name, name-record size, sha256 — and fails on any structural problem.
/// </summary>
public static class AfsIndependentReader
{
    private const string Script = """
import hashlib, struct, sys
data = open(sys.argv[1], 'rb').read()
assert data[:4] == b'AFS\0', 'magic'
n = struct.unpack_from('<I', data, 4)[0]
entries = [struct.unpack_from('<II', data, 8 + 8 * i) for i in range(n)]
used = [(o, s) for o, s in entries if (o, s) != (0, 0)]
first = min([o for o, s in used], default=0)
nt_off, nt_size = struct.unpack_from('<II', data, 8 + 8 * n)
if (nt_off, nt_size) == (0, 0) and first >= 8:
    nt_off, nt_size = struct.unpack_from('<II', data, first - 8)
spans = sorted(used)
for (o1, s1), (o2, s2) in zip(spans, spans[1:]):
    assert o1 + s1 <= o2, 'overlap at %d' % o2
for o, s in used:
    assert o % 0x800 == 0, 'unaligned entry at %d' % o
    assert o + s <= len(data), 'entry past EOF'
    assert o >= 8 + 8 * n + 8, 'entry inside header'
    pad = data[o + s:(o + s + 0x7FF) // 0x800 * 0x800]
    assert pad.count(0) == len(pad), 'padding after entry at %d is not zeros' % o
for i, (o, s) in enumerate(entries):
    name, rsize = '-', -1
    if (nt_off, nt_size) != (0, 0):
        rec = data[nt_off + 48 * i: nt_off + 48 * i + 48]
        name = rec[:32].split(b'\0')[0].decode('latin-1') or '-'
        rsize = struct.unpack_from('<I', rec, 44)[0]
    print(i, o, s, name, rsize, hashlib.sha256(data[o:o + s]).hexdigest())
""";

    public sealed record Entry(int Index, long Offset, long Size, string Name, long RecordSize, string Sha256);

    public static IReadOnlyList<Entry> Read(string path)
    {
        var result = ExternalTool.Python(Script, path);
        Assert.That(result.ExitCode, Is.Zero, $"independent AFS reader rejected {path}: {result}");
        return Parse(result.StdOut) ?? throw new AssertionException($"independent AFS reader listed {path} in a form that does not split into fields (a name with a space?):\n{result.StdOut}");
    }

    /// <summary>Reads many files in one Python start-up: per file its entries, or null where the reader rejects it.</summary>
    public static IReadOnlyList<Entry>?[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(Script, paths.Select(p => new[] { p }).ToArray())
            .Select(r => r.ExitCode == 0 ? Parse(r.StdOut) : null).ToArray();

    // A name with a space or a line break in it (a damaged name table) does not split back into fields: such a listing
    // is one the reader could not give (null).
    private static IReadOnlyList<Entry>? Parse(string output)
    {
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => line.Split(' ')).ToArray();
        if (lines.Any(f => f.Length != 6 || !int.TryParse(f[0], out _) || !long.TryParse(f[4], out _)))
            return null;
        return lines.Select(f => new Entry(int.Parse(f[0]), long.Parse(f[1]), long.Parse(f[2]), f[3], long.Parse(f[4]), f[5])).ToArray();
    }

    public static string Sha256(byte[] bytes) => Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(bytes));
}
