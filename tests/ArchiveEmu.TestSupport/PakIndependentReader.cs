using System.Buffers.Binary;
using System.Text.Json;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// Re-reads a PAK file with a Python reader written from the docs/FORMATS.md facts (no independent PAK tool
/// exists here). Prints the members in order as JSON [name, size, sha256] and fails on any structural
/// problem: bad names, sizes out of bounds, unaligned or non-zero-padded V1 records, stray bytes at the end.
/// </summary>
public static class PakIndependentReader
{
    private const string Script = """
import hashlib, json, struct, sys
data = open(sys.argv[1], 'rb').read()
variant = sys.argv[2]
e = '>' if variant.endswith('BE') else '<'
namelen = {'V1': 252, 'V2': 32, 'V3': 24}[variant[:2]]
out = []
def name_of(field, at):
    raw = field.split(b'\0')[0]
    assert raw and all(0x20 <= c < 0x7f for c in raw), 'bad name at %d: %r' % (at, field)
    assert field[len(raw):].count(0) == len(field) - len(raw), 'bytes after the NUL in the name at %d' % at
    return raw.decode('ascii')
def record(p):
    head = data[p:p + namelen + 4]
    assert len(head) == namelen + 4, 'header cut short at %d' % p
    size = struct.unpack_from(e + 'i', head, namelen)[0]
    start = p + namelen + 4
    assert 0 <= size and start + size <= len(data), 'size %d out of bounds at %d' % (size, p)
    out.append([name_of(head[:namelen], p), size, hashlib.sha256(data[start:start + size]).hexdigest()])
    return start + size
if variant.startswith('V1'):
    p = 0
    while p < len(data):
        assert p % 64 == 0, 'unaligned record at %d' % p
        if data[p:p + 256] == bytes(256):
            assert p + 256 == len(data), 'bytes after the terminator at %d' % p
            break
        end = record(p)
        p = (end + 63) // 64 * 64
        assert p <= len(data), 'last record not padded to 64'
        assert data[end:p] == bytes(p - end), 'padding after the record ending at %d is not zeros' % end
else:
    n = struct.unpack_from(e + 'i', data, 0)[0]
    assert 0 <= n <= len(data), 'count %d' % n
    p = 4
    for i in range(n):
        p = record(p)
    assert p == len(data), '%d stray bytes after the last record' % (len(data) - p)
print(json.dumps(out))
""";

    public sealed record Member(string Name, long Size, string Sha256);

    public static IReadOnlyList<Member> Read(string path, string variant)
    {
        var result = ExternalTool.Python(Script, path, variant);
        Assert.That(result.ExitCode, Is.Zero, $"independent PAK reader rejected {path} as {variant}: {result}");
        return Parse(result.StdOut);
    }

    /// <summary>
    /// A V2 PAK's members in order with their bytes: checked by <see cref="Read"/> (names, sizes, hashes), cut out by a walk of
    /// its records (count, then name[32], s32 size, data). The bytes are written into <paramref name="scratch"/> for the reader.
    /// </summary>
    public static List<(string Name, byte[] Bytes)> V2Members(byte[] pak, TempDirectory scratch)
    {
        var members = Read(scratch.Write($"out/{Guid.NewGuid():N}.pak", pak), "V2");
        var result = new List<(string, byte[])>();
        int at = 4;
        foreach (var member in members)
        {
            int size = BinaryPrimitives.ReadInt32LittleEndian(pak.AsSpan(at + 32));
            var bytes = pak.AsSpan(at + 36, size).ToArray();
            Assert.That(AfsIndependentReader.Sha256(bytes), Is.EqualTo(member.Sha256));
            result.Add((member.Name, bytes));
            at += 36 + size;
        }
        return result;
    }

    /// <summary>Reads many files in one Python start-up: per file its entries, or null where the reader rejects it.</summary>
    public static IReadOnlyList<Member>?[] TryReadMany(IReadOnlyList<string> paths, string variant) =>
        ExternalTool.PythonEach(Script, paths.Select(p => new[] { p, variant }).ToArray())
            .Select(r => r.ExitCode == 0 ? Parse(r.StdOut) : null).ToArray();

    private static Member[] Parse(string output) =>
        JsonSerializer.Deserialize<JsonElement[][]>(output)!
            .Select(m => new Member(m[0].GetString()!, m[1].GetInt64(), m[2].GetString()!))
            .ToArray();
}
