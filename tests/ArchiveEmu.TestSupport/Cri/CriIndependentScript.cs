namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// The Python 3 (standard library only) reader behind <see cref="CpkIndependentReader"/> and
/// <see cref="UtfIndependentReader"/>: @UTF tables (masked or not), CPK packets and tables, and CRILAYLA decoding,
/// written from the public format descriptions and sharing nothing with the product. A structural problem exits
/// non-zero with one line naming where and what.
/// </summary>
internal static class CriIndependentScript
{
    public const string Source = """
import hashlib, json, math, struct, sys

class Bad(Exception):
    pass

def fail(where, msg):
    raise Bad('%s: %s' % (where, msg))

def unmask(b):
    out, m = bytearray(b), 0x655F
    for i in range(len(out)):
        out[i] ^= m & 0xFF
        m = (m * 0x4115) & 0xFFFFFFFF
    return bytes(out)

SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 8, 7: 8, 8: 4, 9: 8, 0xA: 4, 0xB: 8}
FMT = {0: '>B', 1: '>b', 2: '>H', 3: '>h', 4: '>I', 5: '>i', 6: '>Q', 7: '>q', 8: '>f', 9: '>d'}
STORAGE = {0x10: 'zero', 0x30: 'constant', 0x50: 'perrow'}

# buf holds the bytes available to the table from its first byte; where names it for messages.
def read_utf(buf, where):
    masked = False
    if buf[:4] != b'@UTF':
        if len(buf) >= 4 and unmask(buf[:4]) == b'@UTF':
            buf, masked = unmask(buf), True
        else:
            fail(where, 'no @UTF magic, masked or not (found %r)' % bytes(buf[:4]))
    if len(buf) < 0x20:
        fail(where, 'table header cut short: 0x%x bytes' % len(buf))
    size = struct.unpack_from('>I', buf, 4)[0] + 8
    if size > len(buf):
        fail(where, 'table size 0x%x runs past the 0x%x bytes available' % (size, len(buf)))
    ver, rows_off, str_off, data_off, name_off, ncols, width, nrows = struct.unpack_from('>HHIIIHHI', buf, 8)
    rows_off, str_off, data_off = rows_off + 8, str_off + 8, data_off + 8
    if ver not in (0, 1):
        fail(where, 'unknown table version %d' % ver)
    if not (0x20 <= rows_off <= str_off <= data_off <= size):
        fail(where, 'sections out of order: rows 0x%x, strings 0x%x, data 0x%x, end 0x%x' % (rows_off, str_off, data_off, size))
    strings = buf[str_off:data_off]
    def string_at(off, what):
        if off >= len(strings):
            fail(where, '%s: string offset 0x%x outside the 0x%x-byte string pool' % (what, off, len(strings)))
        end = strings.find(b'\0', off)
        if end < 0:
            fail(where, '%s: string at 0x%x has no terminator in the pool' % (what, off))
        return strings[off:end].decode('utf-8', 'replace')
    name = string_at(name_off, 'table name')
    pos, row_pos, columns = 0x20, 0, []
    for c in range(ncols):
        if pos + 5 > rows_off:
            fail(where, 'schema of column %d runs past the rows at 0x%x' % (c, rows_off))
        flag, cname_off = buf[pos], struct.unpack_from('>I', buf, pos + 1)[0]
        pos += 5
        storage, typ = flag & 0xF0, flag & 0x0F
        if storage not in STORAGE:
            fail(where, 'column %d flag 0x%02x: storage is none of zero 0x10, constant 0x30, per-row 0x50' % (c, flag))
        if typ not in SIZES:
            fail(where, 'column %d flag 0x%02x: unknown type 0x%x' % (c, flag, typ))
        col = {'name': string_at(cname_off, 'column %d name' % c), 'type': typ, 'storage': STORAGE[storage]}
        if storage == 0x30:
            if pos + SIZES[typ] > rows_off:
                fail(where, 'constant of column %s runs past the rows at 0x%x' % (col['name'], rows_off))
            col['at'], pos = pos, pos + SIZES[typ]
        elif storage == 0x50:
            col['at'], row_pos = row_pos, row_pos + SIZES[typ]
        columns.append(col)
    if pos != rows_off:
        fail(where, 'schema ends at 0x%x, not at the rows offset 0x%x' % (pos, rows_off))
    if row_pos != width:
        fail(where, 'row width %d is not the %d bytes of the per-row columns' % (width, row_pos))
    if width == 0 and nrows > size:
        fail(where, '%d rows with no per-row column in a 0x%x-byte table' % (nrows, size))
    if rows_off + nrows * width > str_off:
        fail(where, '%d rows of %d bytes from 0x%x run past the string pool at 0x%x' % (nrows, width, rows_off, str_off))
    names = [c['name'] for c in columns]
    if len(set(names)) != len(names):
        fail(where, 'a column name appears twice')
    def value(col, at, what):
        typ = col['type']
        if typ == 0xA:
            return string_at(struct.unpack_from('>I', buf, at)[0], what)
        if typ == 0xB:
            off, n = struct.unpack_from('>II', buf, at)
            if data_off + off + n > size:
                fail(where, '%s: data 0x%x+0x%x runs past the 0x%x-byte data pool' % (what, off, n, size - data_off))
            return bytes(buf[data_off + off:data_off + off + n])
        return struct.unpack_from(FMT[typ], buf, at)[0]
    rows = []
    for r in range(nrows):
        row = {}
        for col in columns:
            what = 'row %d column %s' % (r, col['name'])
            if col['storage'] == 'zero':
                row[col['name']] = None
            elif col['storage'] == 'constant':
                row[col['name']] = value(col, col['at'], what)
            else:
                row[col['name']] = value(col, rows_off + r * width + col['at'], what)
        rows.append(row)
    cols = [{'name': c['name'], 'type': c['type'], 'storage': c['storage']} for c in columns]
    return {'name': name, 'masked': masked, 'size': size, 'columns': cols, 'rows': rows}

def jsonable(v):
    if isinstance(v, bytes):
        return {'size': len(v), 'sha256': hashlib.sha256(v).hexdigest(), 'hex': v.hex() if len(v) <= 0x10000 else None}
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v

def jsonable_table(t):
    t = dict(t)
    t['rows'] = [{k: jsonable(v) for k, v in row.items()} for row in t['rows']]
    return t

# The stored bytes s of one entry, FileSize < ExtractSize: a CRILAYLA stream decoded back to front. A bit yields
# at most 32 bytes (a 255-byte length step costs 8 bits), which bounds what a stream can claim before allocating.
def crilayla(s, where, expected=None):
    if len(s) < 0x110 or s[:8] != b'CRILAYLA':
        fail(where, 'FileSize 0x%x < ExtractSize but no CRILAYLA stream (starts %r)' % (len(s), bytes(s[:8])))
    usize, csize = struct.unpack_from('<II', s, 8)
    if 0x10 + csize + 0x100 != len(s):
        fail(where, 'CRILAYLA compressed size 0x%x + 0x110 is not the stored size 0x%x' % (csize, len(s)))
    if expected is not None and 0x100 + usize != expected:
        fail(where, 'CRILAYLA stream holds 0x100 + 0x%x = 0x%x bytes, ExtractSize is 0x%x' % (usize, 0x100 + usize, expected))
    if usize > 32 * 8 * csize + 299:
        fail(where, 'CRILAYLA content size 0x%x cannot come from 0x%x bytes of bits' % (usize, csize))
    out = bytearray(0x100 + usize)
    out[:0x100] = s[0x10 + csize:]
    st = {'src': 0x10 + csize, 'acc': 0, 'n': 0}
    p, lo = len(out) - 1, 0x100
    def get(k):
        acc, n, src = st['acc'], st['n'], st['src']
        while n < k:
            if src <= 0x10:
                fail(where, 'CRILAYLA stream runs out of bits with 0x%x bytes still to decode' % (p - lo + 1))
            src -= 1
            acc, n = (acc << 8) | s[src], n + 8
        n -= k
        v = acc >> n
        st['acc'], st['n'], st['src'] = acc & ((1 << n) - 1), n, src
        return v
    while p >= lo:
        if get(1):
            d, n = get(13) + 3, 3
            for w in (2, 3, 5, 8):
                v = get(w)
                n += v
                if v != (1 << w) - 1:
                    break
            else:
                while True:
                    v = get(8)
                    n += v
                    if v != 255:
                        break
            if p - n + 1 < lo:
                fail(where, 'CRILAYLA back-reference of %d bytes runs past the start of the output at 0x%x' % (n, p))
            if p + d >= len(out):
                fail(where, 'CRILAYLA back-reference distance %d reaches past the end of the output at 0x%x' % (d, p))
            if d >= n:
                out[p - n + 1:p + 1] = out[p + d - n + 1:p + d + 1]
            else:
                for i in range(n):
                    out[p - i] = out[p + d - i]
            p -= n
        else:
            out[p] = get(8)
            p -= 1
    return bytes(out)

def packet(data, off, magic, where):
    if off < 0 or off + 0x10 > len(data):
        fail(where, '%s packet offset 0x%x is outside the 0x%x-byte file' % (magic.decode(), off, len(data)))
    if data[off:off + 4] != magic:
        fail(where, 'packet at 0x%x has magic %r, expected %r' % (off, bytes(data[off:off + 4]), magic))
    size = struct.unpack_from('<Q', data, off + 8)[0]
    if off + 0x10 + size > len(data):
        fail(where, '%s packet at 0x%x: table size 0x%x runs past the end of the file 0x%x' % (magic.decode(), off, size, len(data)))
    return read_utf(data[off + 0x10:off + 0x10 + size], '%s table at 0x%x' % (magic.decode().strip(), off + 0x10)), size

def num(row, name):
    v = row.get(name)
    return 0 if v is None else v

def read_cpk(path):
    data = open(path, 'rb').read()
    where = path
    head, _ = packet(data, 0, b'CPK ', where)
    if len(head['rows']) != 1:
        fail(where, 'CPK header table has %d rows, not 1' % len(head['rows']))
    h = head['rows'][0]
    masked = head['masked']
    align, content_off = num(h, 'Align'), num(h, 'ContentOffset')
    toc_off, itoc_off, etoc_off = num(h, 'TocOffset'), num(h, 'ItocOffset'), num(h, 'EtocOffset')
    if align < 1:
        fail(where, 'Align is %d' % align)
    if content_off % align:
        fail(where, 'ContentOffset 0x%x is not a multiple of Align 0x%x' % (content_off, align))
    if content_off > len(data):
        fail(where, 'ContentOffset 0x%x is past the end of the file 0x%x' % (content_off, len(data)))
    content_end = len(data)
    if h.get('ContentSize') is not None:
        content_end = content_off + h['ContentSize']
        if content_end > len(data):
            fail(where, 'ContentOffset 0x%x + ContentSize 0x%x runs past the end of the file 0x%x' % (content_off, h['ContentSize'], len(data)))
    reserved = []
    def table_at(off, magic, size_column):
        t, size = packet(data, off, magic, where)
        stated = num(h, size_column)
        if stated < 0x10 + size or off + stated > len(data):
            fail(where, '%s 0x%x does not hold the %s packet of 0x%x bytes at 0x%x' % (size_column, stated, magic.decode().strip(), 0x10 + size, off))
        reserved.append((off, off + 0x10 + size, magic.decode().strip()))
        return t
    entries = []
    if toc_off:
        kind = 'named'
        toc = table_at(toc_off, b'TOC ', 'TocSize')
        masked = masked or toc['masked']
        base = min(toc_off, content_off)
        for i, r in enumerate(toc['rows']):
            entries.append({'dirName': r.get('DirName') or '', 'fileName': r.get('FileName') or '', 'id': num(r, 'ID'),
                'offset': base + num(r, 'FileOffset'), 'fileOffset': num(r, 'FileOffset'), 'fileSize': num(r, 'FileSize'),
                'extractSize': num(r, 'ExtractSize'), 'userString': r.get('UserString'), 'localDir': None})
        if itoc_off:
            table_at(itoc_off, b'ITOC', 'ItocSize')
    elif itoc_off:
        kind = 'id'
        itoc = table_at(itoc_off, b'ITOC', 'ItocSize')
        masked = masked or itoc['masked']
        if len(itoc['rows']) != 1:
            fail(where, 'ITOC table has %d rows, not 1' % len(itoc['rows']))
        it = itoc['rows'][0]
        found = []
        for part, count_column, magic in (('DataL', 'FilesL', 'CpkItocL'), ('DataH', 'FilesH', 'CpkItocH')):
            count, blob = num(it, count_column), it.get(part) or b''
            if count == 0 and len(blob) == 0:
                continue
            sub = read_utf(blob, 'ITOC %s table' % part)
            if len(sub['rows']) < count:
                fail(where, 'ITOC %s has %d rows for %s %d' % (part, len(sub['rows']), count_column, count))
            for r in sub['rows'][:count]:
                found.append({'dirName': '', 'fileName': '', 'id': num(r, 'ID'), 'fileSize': num(r, 'FileSize'),
                    'extractSize': num(r, 'ExtractSize'), 'userString': None, 'localDir': None, 'table': part})
        found.sort(key=lambda e: e['id'])
        for a, b in zip(found, found[1:]):
            if a['id'] == b['id']:
                fail(where, 'ID %d appears twice in the ITOC' % a['id'])
        pos = content_off
        for e in found:
            pos = (pos + align - 1) // align * align
            e['offset'], e['fileOffset'] = pos, pos - content_off
            pos += e['fileSize']
            del e['table']
            entries.append(e)
    else:
        fail(where, 'neither TocOffset nor ItocOffset is set')
    if etoc_off:
        etoc = table_at(etoc_off, b'ETOC', 'EtocSize')
        if len(etoc['rows']) < len(entries):
            fail(where, 'ETOC has %d rows for %d entries' % (len(etoc['rows']), len(entries)))
        for e, r in zip(entries, etoc['rows']):
            e['localDir'] = r.get('LocalDir')
    if num(h, 'Files') != len(entries):
        fail(where, 'Files is %d but the table of contents lists %d entries' % (num(h, 'Files'), len(entries)))
    spans = []
    for i, e in enumerate(entries):
        at = '%s entry %d (%s/%s id %d) at 0x%x' % (where, i, e['dirName'], e['fileName'], e['id'], e['offset'])
        start, end = e['offset'], e['offset'] + e['fileSize']
        if start < content_off or end > content_end:
            fail(at, 'bytes 0x%x..0x%x are outside the content 0x%x..0x%x' % (start, end, content_off, content_end))
        if start % align:
            fail(at, 'offset is not a multiple of Align 0x%x' % align)
        for lo, hi, name in reserved:
            if start < hi and lo < end:
                fail(at, 'bytes 0x%x..0x%x overlap the %s packet 0x%x..0x%x' % (start, end, name, lo, hi))
        stored = data[start:end]
        if e['fileSize'] == e['extractSize']:
            content, e['compressed'] = stored, False
        elif e['fileSize'] < e['extractSize']:
            content, e['compressed'] = crilayla(stored, at, e['extractSize']), True
            if len(content) != e['extractSize']:
                fail(at, 'CRILAYLA stream decodes to 0x%x bytes, ExtractSize is 0x%x' % (len(content), e['extractSize']))
        else:
            fail(at, 'FileSize 0x%x is larger than ExtractSize 0x%x' % (e['fileSize'], e['extractSize']))
        e['storedSha256'] = hashlib.sha256(stored).hexdigest()
        e['contentSha256'] = hashlib.sha256(content).hexdigest()
        spans.append((start, end, i))
    spans.sort()
    for (s1, e1, i1), (s2, e2, i2) in zip(spans, spans[1:]):
        if s2 < e1 and (s1, e1) != (s2, e2):
            fail(where, 'entries %d and %d overlap at 0x%x' % (i1, i2, s2))
    for column, key in (('EnabledPackedSize', 'fileSize'), ('EnabledDataSize', 'extractSize')):
        if h.get(column) is not None and h[column] != sum(e[key] for e in entries):
            fail(where, '%s 0x%x is not the sum of the entries\' %s 0x%x' % (column, h[column], key, sum(e[key] for e in entries)))
    header = {k: jsonable(v) for k, v in h.items()}
    return {'kind': kind, 'masked': masked, 'alignment': align, 'contentOffset': content_off, 'tocOffset': toc_off,
        'itocOffset': itoc_off, 'etocOffset': etoc_off, 'header': header, 'entries': entries}

# An ACB: its Header table (one @UTF table at offset 0) and, where the streamed AWB's header copy and hash are nested
# @UTF tables (plain or masked), those tables read too.
def read_acb(path):
    data = open(path, 'rb').read()
    t = read_utf(data, '%s ACB Header table' % path)
    nested = {}
    for col in ('StreamAwbAfs2Header', 'StreamAwbHash'):
        v = t['rows'][0].get(col) if t['rows'] else None
        if isinstance(v, bytes) and len(v) >= 4 and (v[:4] == b'@UTF' or unmask(v[:4]) == b'@UTF'):
            nested[col] = jsonable_table(read_utf(v, '%s %s table' % (path, col)))
    out = jsonable_table(t)
    out['nested'] = nested
    return out

try:
    if sys.argv[1] == 'cpk':
        print(json.dumps(read_cpk(sys.argv[2])))
    elif sys.argv[1] == 'utf':
        data = open(sys.argv[2], 'rb').read()
        print(json.dumps(jsonable_table(read_utf(data[int(sys.argv[3]):], '%s @UTF at 0x%x' % (sys.argv[2], int(sys.argv[3]))))))
    elif sys.argv[1] == 'acb':
        print(json.dumps(read_acb(sys.argv[2])))
    elif sys.argv[1] == 'crilayla':
        data = open(sys.argv[2], 'rb').read()
        open(sys.argv[3], 'wb').write(crilayla(data, sys.argv[2]))
    else:
        raise SystemExit('unknown mode ' + sys.argv[1])
except Bad as e:
    print('REJECTED: %s' % e)  # on stdout, which ExternalTool.PythonEach captures per run
    raise SystemExit(2)
""";
}
