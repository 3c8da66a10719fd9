using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// Reads and validates a CRI @UTF table (big-endian; vgmstream cri_utf.c, CriFsV2Lib CriTableMetadata):
/// <c>@UTF</c>, u32 size of what follows 0x08, u8 version, u8 encoding, u16 rows offset, u32 string pool offset,
/// u32 data pool offset, u32 table name offset (into the string pool), u16 columns, u16 row width, u32 rows; pool and
/// row offsets count from 0x08. Columns follow at 0x20: a flag byte (storage | type), a u32 name offset, and the value
/// of a constant column. A table that does not start with <c>@UTF</c> but unmasks to it (<see cref="UtfMask"/>) is
/// read unmasked. Every offset, count and size is checked against the table, so a hostile table is one
/// <see cref="ArchiveFormatException"/> naming the file and the offset.
/// </summary>
internal static class UtfTableReader
{
    /// <summary>The fixed header's size; columns start here.</summary>
    public const int HeaderSize = 0x20;

    /// <summary>The most rows a table whose rows take no bytes may claim (they cost memory but no file bytes).</summary>
    private const long MaxEmptyRows = 1 << 16;

    private static readonly Encoding ShiftJis = CodePagesEncodingProvider.Instance.GetEncoding(932)!;

    /// <summary>
    /// Reads the table at the start of <paramref name="bytes"/> (which may run on past its end). <paramref name="path"/>
    /// and <paramref name="at"/> (the table's offset in that file) name errors.
    /// </summary>
    public static UtfTable Read(ReadOnlySpan<byte> bytes, string path, long at)
    {
        bool masked = false;
        byte[] table;
        if (bytes.Length >= 8 && !bytes.StartsWith("@UTF"u8) && UtfMask.IsMaskedUtf(bytes))
        {
            // The size field is masked too: unmask the first 8 bytes to learn how much to unmask.
            var head = bytes[..8].ToArray();
            UtfMask.Apply(head);
            long size = 8L + BinaryPrimitives.ReadUInt32BigEndian(head.AsSpan(4));
            if (size > bytes.Length)
                throw Corrupt(path, at + 4, $"@UTF table size {size} runs past the {bytes.Length} bytes that hold it");
            table = bytes[..(int)size].ToArray();
            UtfMask.Apply(table);
            masked = true;
        }
        else
        {
            table = bytes.ToArray();
        }
        return Parse(table, masked, path, at);
    }

    private static UtfTable Parse(byte[] t, bool masked, string path, long at)
    {
        if (t.Length < HeaderSize || !t.AsSpan().StartsWith("@UTF"u8))
            throw Corrupt(path, at, "not an @UTF table (no @UTF magic, masked or plain)");
        long size = 8L + BE32(t, 4);
        if (size < HeaderSize || size > t.Length)
            throw Corrupt(path, at + 4, $"@UTF table size {size} is below the {HeaderSize}-byte header or past the {t.Length} bytes that hold it");
        byte version = t[8], encodingByte = t[9];
        long rowsAt = 8L + BinaryPrimitives.ReadUInt16BigEndian(t.AsSpan(0xA));
        long stringsAt = 8L + BE32(t, 0xC);
        long dataAt = 8L + BE32(t, 0x10);
        long nameOffset = BE32(t, 0x14);
        int columnCount = BinaryPrimitives.ReadUInt16BigEndian(t.AsSpan(0x18));
        int rowWidth = BinaryPrimitives.ReadUInt16BigEndian(t.AsSpan(0x1A));
        long rowCount = BE32(t, 0x1C);
        var encoding = encodingByte == 0 ? ShiftJis : Encoding.UTF8;

        // Regions in order: header+columns, rows, string pool, data pool, all inside the table.
        if (stringsAt > dataAt || dataAt > size)
            throw Corrupt(path, at + 0xC, $"string pool at {stringsAt} and data pool at {dataAt} are out of order or past the {size}-byte table");
        long rowsEnd = rowsAt + (long)rowWidth * rowCount;
        if (rowsAt < HeaderSize || rowsEnd > stringsAt)
            throw Corrupt(path, at + 0xA, $"{rowCount} rows of {rowWidth} bytes at {rowsAt} overlap the header or the string pool at {stringsAt}");
        var pools = new Pools(t, stringsAt, dataAt, size, encoding, path, at);

        var columns = new UtfColumn[columnCount];
        long cursor = HeaderSize;
        int perRowWidth = 0;
        for (int c = 0; c < columnCount; c++)
        {
            if (cursor + 5 > rowsAt)
                throw Corrupt(path, at + cursor, $"column {c} of {columnCount} runs into the rows at {rowsAt}");
            byte flag = t[cursor];
            var type = (UtfType)(flag & 0x0F);
            var storage = (UtfStorage)(flag & 0xF0);
            if (type > UtfType.Guid || storage is not (UtfStorage.Zero or UtfStorage.Constant or UtfStorage.PerRow))
                throw Corrupt(path, at + cursor, $"column {c} flag 0x{flag:X2} is not a known storage (0x10, 0x30, 0x50) and type (0x0-0xC)");
            string name = pools.String(BE32(t, cursor + 1), at + cursor + 1, $"column {c} name");
            cursor += 5;
            object? constant = null;
            int width = UtfColumn.WidthOf(type);
            if (storage == UtfStorage.Constant)
            {
                if (cursor + width > rowsAt)
                    throw Corrupt(path, at + cursor, $"column '{name}' constant runs into the rows at {rowsAt}");
                constant = ReadValue(t, cursor, type, pools, -1, name);
                cursor += width;
            }
            else if (storage == UtfStorage.PerRow)
            {
                perRowWidth += width;
            }
            columns[c] = new UtfColumn(name, type, storage, constant);
        }
        if (perRowWidth > rowWidth)
            throw Corrupt(path, at + 0x1A, $"row width {rowWidth} is less than the {perRowWidth} bytes the per-row columns take");
        if (rowWidth == 0 && rowCount > MaxEmptyRows)
            throw Corrupt(path, at + 0x1C, $"{rowCount} rows of 0 bytes is more than the {MaxEmptyRows} this reader accepts");

        string tableName = pools.String(nameOffset, at + 0x14, "table name");
        var rows = new List<object?[]>((int)Math.Min(rowCount, 1 << 16));
        for (long r = 0; r < rowCount; r++)
        {
            var row = new object?[columnCount];
            long p = rowsAt + r * rowWidth;
            for (int c = 0; c < columnCount; c++)
            {
                var column = columns[c];
                switch (column.Storage)
                {
                    case UtfStorage.Zero: row[c] = column.ZeroValue; break;
                    case UtfStorage.Constant: row[c] = column.Constant; break;
                    default:
                        row[c] = ReadValue(t, p, column.Type, pools, r, column.Name);
                        p += UtfColumn.WidthOf(column.Type);
                        break;
                }
            }
            rows.Add(row);
        }
        return new UtfTable(tableName, columns, rows, masked, version, encodingByte);
    }

    // The value at p; row -1 is the column's constant. What a damaged value is called is only spelled out when one is: a
    // 40,000-row TOC reads hundreds of thousands of values.
    private static object? ReadValue(byte[] t, long p, UtfType type, Pools pools, long row, string column)
    {
        var s = t.AsSpan((int)p);
        return type switch
        {
            UtfType.U8 => s[0],
            UtfType.S8 => (sbyte)s[0],
            UtfType.U16 => BinaryPrimitives.ReadUInt16BigEndian(s),
            UtfType.S16 => BinaryPrimitives.ReadInt16BigEndian(s),
            UtfType.U32 => BinaryPrimitives.ReadUInt32BigEndian(s),
            UtfType.S32 => BinaryPrimitives.ReadInt32BigEndian(s),
            UtfType.U64 => BinaryPrimitives.ReadUInt64BigEndian(s),
            UtfType.S64 => BinaryPrimitives.ReadInt64BigEndian(s),
            UtfType.Float => BinaryPrimitives.ReadSingleBigEndian(s),
            UtfType.Double => BinaryPrimitives.ReadDoubleBigEndian(s),
            UtfType.String => pools.String(BE32(t, p), pools.At + p, row, column),
            UtfType.Data => pools.Data(BE32(t, p), BE32(t, p + 4), pools.At + p, row, column),
            _ => s[..16].ToArray(),
        };
    }

    private static long BE32(byte[] t, long p) => BinaryPrimitives.ReadUInt32BigEndian(t.AsSpan((int)p));

    private static ArchiveFormatException Corrupt(string path, long offset, string problem) => new(path, offset, problem);

    private static string What(long row, string column) => row switch
    {
        -2 => column,
        -1 => $"column '{column}' constant",
        _ => $"row {row} column '{column}'",
    };

    /// <summary>The string and data pools, with checked access.</summary>
    private sealed class Pools(byte[] t, long stringsAt, long dataAt, long size, Encoding encoding, string path, long at)
    {
        private readonly Dictionary<long, string> _strings = [];

        public long At => at;

        public string String(long offset, long fieldAt, string what) => String(offset, fieldAt, -2, what);

        /// <summary>The string at <paramref name="offset"/>; <paramref name="row"/> and <paramref name="column"/> name it in an error (row -1: the column's constant, -2: <paramref name="column"/> says what it is).</summary>
        public string String(long offset, long fieldAt, long row, string column)
        {
            if (_strings.TryGetValue(offset, out var known))
                return known;
            long start = stringsAt + offset;
            if (offset >= dataAt - stringsAt)
                throw Corrupt(path, fieldAt, $"{What(row, column)}: string offset {offset} is outside the {dataAt - stringsAt}-byte string pool");
            int end = Array.IndexOf(t, (byte)0, (int)start, (int)(dataAt - start));
            if (end < 0)
                throw Corrupt(path, fieldAt, $"{What(row, column)}: string at pool offset {offset} has no NUL before the string pool ends");
            return _strings[offset] = encoding.GetString(t, (int)start, end - (int)start);
        }

        public byte[] Data(long offset, long length, long fieldAt, long row, string column)
        {
            long poolSize = size - dataAt;
            if (offset > poolSize || length > poolSize - offset)
                throw Corrupt(path, fieldAt, $"{What(row, column)}: data [{offset}, {offset + length}) is outside the {poolSize}-byte data pool");
            return t.AsSpan((int)(dataAt + offset), (int)length).ToArray();
        }
    }
}
