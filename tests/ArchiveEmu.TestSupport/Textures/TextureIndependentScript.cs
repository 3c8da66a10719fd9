using System.Text.Json;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>
/// A third opinion on TXD and SPD files: a standard-library Python reader written apart from the C# readers, printing
/// a canonical JSON summary (fields, and the sha256 of every DDS and mip level). Ignored where python3 is missing.
/// </summary>
public static class TextureIndependentScript
{
    private const string Script = """
import hashlib, json, struct, sys
kind, data = sys.argv[1], open(sys.argv[2], 'rb').read()
h = lambda b: hashlib.sha256(b).hexdigest()
def u32(o):
    assert 0 <= o and o + 4 <= len(data), 'u32 at %#x past the end' % o
    return struct.unpack_from('<I', data, o)[0]
def cstr(o, n):
    raw = data[o:o + n]
    assert len(raw) == n and b'\0' in raw, 'name at %#x' % o
    return raw.split(b'\0')[0].decode('ascii')
def level_size(fmt, w, h_, i):
    w, h_ = max(1, w >> i), max(1, h_ >> i)
    if fmt in ('A8R8G8B8', 'X8R8G8B8'):
        return w * h_ * 4
    return max(1, (w + 3) // 4) * max(1, (h_ + 3) // 4) * (8 if fmt == 'Dxt1' else 16)
def chunks(start, end, stamp):
    out, o = [], start
    while o < end:
        assert end - o >= 12, 'chunk header at %#x' % o
        cid, size, lib = struct.unpack_from('<III', data, o)
        assert o + 12 + size <= end, 'chunk at %#x overruns its parent' % o
        assert lib == stamp, 'library id at %#x' % o
        out.append((cid, o + 12, size))
        o += 12 + size
    return out
def txd():
    cid, size, stamp = struct.unpack_from('<III', data, 0)
    assert cid == 0x16, 'not a texture dictionary'
    assert 12 + size <= len(data) and not any(data[12 + size:]), 'dictionary size or padding'
    kids = chunks(12, 12 + size, stamp)
    assert kids[0][0] == 1 and kids[0][2] == 4 and kids[-1][0] == 3, 'dictionary layout'
    count, device = struct.unpack_from('<HH', data, kids[0][1])
    natives = kids[1:-1]
    assert len(natives) == count and all(k[0] == 0x15 for k in natives), 'count'
    textures = []
    for _, body, nsize in natives:
        parts = chunks(body, body + nsize, stamp)
        assert [p[0] for p in parts] == [1, 3], 'native layout at %#x' % body
        s, ssize = parts[0][1], parts[0][2]
        platform, flags = u32(s), u32(s + 4)
        raster, word = u32(s + 72), u32(s + 76)
        w, hh, depth, levels, rtype, last = struct.unpack_from('<HHBBBB', data, s + 80)
        assert raster & 0x6000 == 0, 'palettised'
        if platform == 8:
            fmt = {0: 'X8R8G8B8' if raster & 0xF00 == 0x600 else 'A8R8G8B8', 1: 'Dxt1', 3: 'Dxt3', 5: 'Dxt5'}[last]
        else:
            assert platform == 9, 'platform %d' % platform
            fmt = {0x31545844: 'Dxt1', 0x33545844: 'Dxt3', 0x35545844: 'Dxt5', 21: 'A8R8G8B8', 22: 'X8R8G8B8'}[word]
            assert bool(last & 8) == fmt.startswith('Dxt'), 'compressed flag'
        o, sums = s + 88, []
        for i in range(levels):
            n = u32(o)
            assert n == level_size(fmt, w, hh, i), 'level %d size at %#x' % (i, o)
            sums.append(h(data[o + 4:o + 4 + n]))
            o += 4 + n
        assert o == s + ssize, 'struct size at %#x' % s
        textures.append({'platform': platform, 'name': cstr(s + 8, 32), 'mask': cstr(s + 40, 32), 'filter': flags,
                         'format': fmt, 'width': w, 'height': hh, 'mips': levels, 'levels': sums})
    return {'device': device, 'textures': textures}
def dds(o, n):
    assert data[o:o + 4] == b'DDS ' and u32(o + 4) == 124, 'DDS header at %#x' % o
    flags, hh, w = u32(o + 8), u32(o + 12), u32(o + 16)
    mips = max(1, u32(o + 28))
    if u32(o + 80) & 4:
        fmt = {b'DXT1': 'Dxt1', b'DXT3': 'Dxt3', b'DXT5': 'Dxt5'}[data[o + 84:o + 88]]
    else:
        masks = struct.unpack_from('<5I', data, o + 88)
        assert masks[:4] == (32, 0xFF0000, 0xFF00, 0xFF) and masks[4] in (0, 0xFF000000), 'masks at %#x' % o
        fmt = 'A8R8G8B8' if masks[4] else 'X8R8G8B8'
    p, sums = o + 128, []
    for i in range(mips):
        k = level_size(fmt, w, hh, i)
        sums.append(h(data[p:p + k]))
        p += k
    assert p == o + n, 'DDS at %#x is %d bytes, its levels %d' % (o, n, p - o)
    return fmt, w, hh, mips, sums
def spd():
    assert data[:4] == b'SPR0' and u32(8) == len(data), 'SPD header'
    tcount, scount = struct.unpack_from('<HH', data, 0x14)
    ttab, stab = u32(0x18), u32(0x1C)
    textures, ids = [], set()
    for i in range(tcount):
        e = ttab + 0x30 * i
        tid, _, off, size, w, hh = struct.unpack_from('<iIIIii', data, e)
        assert off + size <= len(data), 'texture %d past the end' % tid
        fmt, dw, dh, mips, sums = dds(off, size)
        assert (w, hh) == (dw, dh), 'texture %d size' % tid
        name = data[e + 0x20:e + 0x30].split(b'\0')[0].decode('latin-1')
        textures.append({'id': tid, 'name': name, 'width': w, 'height': hh, 'format': fmt, 'mips': mips,
                         'sha256': h(data[off:off + size]), 'levels': sums})
        ids.add(tid)
    sprites = []
    for i in range(scount):
        e = stab + 0xA0 * i
        assert e + 0xA0 <= len(data), 'sprite %d past the end' % i
        sid, tex = struct.unpack_from('<ii', data, e)
        assert tex in ids, 'sprite %d on missing texture %d' % (sid, tex)
        x, y, w, hh = struct.unpack_from('<4i', data, e + 0x20)
        sprites.append({'id': sid, 'texture': tex, 'x': x, 'y': y, 'width': w, 'height': hh})
    return {'textures': textures, 'sprites': sprites}
print(json.dumps(txd() if kind == 'txd' else spd(), sort_keys=True))
""";

    /// <summary>The Python reader's summary of the TXD at <paramref name="path"/>; fails the test if it rejects the file.</summary>
    public static JsonElement ReadTxd(string path) => Run("txd", path);

    /// <summary>The Python reader's summary of the SPD at <paramref name="path"/>; fails the test if it rejects the file.</summary>
    public static JsonElement ReadSpd(string path) => Run("spd", path);

    /// <summary>Whether the Python reader rejects the file (a failed assertion or any exception).</summary>
    public static bool Rejects(string kind, string path) => RunRaw(kind, path).ExitCode != 0;

    /// <summary>The summary the Python reader prints, built from the C# reader's record, for comparing the two.</summary>
    public static string Summary(TxdRecord txd) => JsonSerializer.Serialize(new
    {
        device = (int)txd.DeviceId,
        textures = txd.Textures.Select(t => new
        {
            filter = t.FilterFlags, format = t.Format.ToString(), height = t.Height,
            levels = t.Levels.Select(Sha256).ToArray(), mask = t.Mask, mips = t.MipCount, name = t.Name,
            platform = t.Platform, width = t.Width,
        }),
    });

    /// <summary>The summary the Python reader prints, built from the C# reader's record, for comparing the two.</summary>
    public static string Summary(SpdRecord spd) => JsonSerializer.Serialize(new
    {
        sprites = spd.Sprites.Select(s => new { height = s.Height, id = s.Id, texture = s.TextureId, width = s.Width, x = s.X, y = s.Y }),
        textures = spd.Textures.Select(t => new
        {
            format = t.Image.Format.ToString(), height = t.Height, id = t.Id, levels = t.Image.Levels.Select(Sha256).ToArray(),
            mips = t.Image.MipCount, name = t.Name, sha256 = Sha256(t.Dds), width = t.Width,
        }),
    });

    /// <summary>A JSON text re-serialised compactly with its keys as given (the script sorts them).</summary>
    public static string Compact(JsonElement element) => JsonSerializer.Serialize(element);

    private static string Sha256(byte[] bytes) => Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(bytes));

    private static JsonElement Run(string kind, string path)
    {
        var result = RunRaw(kind, path);
        Assert.That(result.ExitCode, Is.Zero, $"the independent Python {kind} reader rejected {path}: {result}");
        return JsonDocument.Parse(result.StdOut).RootElement.Clone();
    }

    private static ToolResult RunRaw(string kind, string path)
    {
        return ExternalTool.Python(Script, kind, path); // skips without python3, and fails so on CI
    }
}
