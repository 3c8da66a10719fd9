using System.Buffers.Binary;
using System.Globalization;
using System.Text;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// Writes a <see cref="UtfTable"/> in the layout <see cref="UtfTableReader"/> documents: header, columns in order,
/// rows, the string pool (starting with CRI's "&lt;NULL&gt;" string, then the table and column names), the data pool on
/// an 8-byte boundary, the whole padded to 8 bytes; masked again when the table was. Each column keeps its storage
/// kind where its values allow: a zero column whose rows are not all zero, or a constant column whose rows differ, is
/// stored per row (a constant column whose rows all hold one new value stays constant with it).
/// </summary>
internal static class UtfTableWriter
{
    private static readonly Encoding ShiftJis = CodePagesEncodingProvider.Instance.GetEncoding(932)!;

    /// <summary>The table's bytes. A value the column's type cannot hold is an OverflowException; a null string or data value outside a zero column an ArgumentException.</summary>
    public static byte[] Write(UtfTable table)
    {
        ArgumentNullException.ThrowIfNull(table);
        var encoding = table.Encoding == 0 ? ShiftJis : Encoding.UTF8;
        var strings = new StringPool(encoding);
        strings.Add("<NULL>");
        strings.Add(table.Name);
        var data = new MemoryStream();
        var layout = table.Columns.Select((c, i) => StorageOf(table, c, i)).ToArray();
        foreach (var c in table.Columns)
            strings.Add(c.Name);

        var columns = new MemoryStream();
        for (int i = 0; i < table.Columns.Count; i++)
        {
            var (column, storage, constant) = (table.Columns[i], layout[i].Storage, layout[i].Constant);
            columns.WriteByte((byte)((byte)storage | (byte)column.Type));
            columns.Write(BE32(strings.Add(column.Name)));
            if (storage == UtfStorage.Constant)
                columns.Write(Value(column, constant, strings, data));
        }
        int rowWidth = table.Columns.Where((_, i) => layout[i].Storage == UtfStorage.PerRow).Sum(c => UtfColumn.WidthOf(c.Type));
        var rows = new MemoryStream();
        foreach (var row in table.Rows)
        {
            for (int i = 0; i < table.Columns.Count; i++)
                if (layout[i].Storage == UtfStorage.PerRow)
                    rows.Write(Value(table.Columns[i], row[i], strings, data));
        }

        long rowsAt = UtfTableReader.HeaderSize + columns.Length;
        long stringsAt = rowsAt + rows.Length;
        var pool = strings.ToArray();
        long dataAt = Align8(stringsAt + pool.Length);
        long size = Align8(dataAt + data.Length);
        if (rowsAt - 8 > ushort.MaxValue || rowWidth > ushort.MaxValue || table.Columns.Count > ushort.MaxValue || size > uint.MaxValue)
            throw new OverflowException($"@UTF table '{table.Name}' does not fit the format's 16- and 32-bit fields");

        var t = new byte[size];
        "@UTF"u8.CopyTo(t);
        BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(4), (uint)(size - 8));
        t[8] = table.Version;
        t[9] = table.Encoding;
        BinaryPrimitives.WriteUInt16BigEndian(t.AsSpan(0xA), (ushort)(rowsAt - 8));
        BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(0xC), (uint)(stringsAt - 8));
        BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(0x10), (uint)(dataAt - 8));
        BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(0x14), (uint)strings.Add(table.Name));
        BinaryPrimitives.WriteUInt16BigEndian(t.AsSpan(0x18), (ushort)table.Columns.Count);
        BinaryPrimitives.WriteUInt16BigEndian(t.AsSpan(0x1A), (ushort)rowWidth);
        BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(0x1C), checked((uint)table.Rows.Count));
        columns.ToArray().CopyTo(t, UtfTableReader.HeaderSize);
        rows.ToArray().CopyTo(t, rowsAt);
        pool.CopyTo(t, stringsAt);
        data.ToArray().CopyTo(t, dataAt);
        if (table.Masked)
            UtfMask.Apply(t);
        return t;
    }

    // The storage the column's values allow, nearest to the one it had.
    private static (UtfStorage Storage, object? Constant) StorageOf(UtfTable table, UtfColumn column, int index)
    {
        if (column.Storage == UtfStorage.PerRow)
            return (UtfStorage.PerRow, null);
        if (table.Rows.Count == 0)
            return (column.Storage, column.Constant);
        var first = table.Rows[0][index];
        bool allSame = table.Rows.All(r => ValueEquals(r[index], first));
        if (column.Storage == UtfStorage.Zero && allSame && ValueEquals(first, column.ZeroValue))
            return (UtfStorage.Zero, null);
        if (column.Storage == UtfStorage.Constant && allSame)
            return (UtfStorage.Constant, first);
        return (UtfStorage.PerRow, null);
    }

    /// <summary>Value equality as the table means it: byte arrays by content, numbers by value.</summary>
    public static bool ValueEquals(object? a, object? b) => (a, b) switch
    {
        (null, null) => true,
        (byte[] x, byte[] y) => x.AsSpan().SequenceEqual(y),
        (null, _) or (_, null) => false,
        _ => a.Equals(b),
    };

    private static byte[] Value(UtfColumn column, object? value, StringPool strings, MemoryStream data)
    {
        var b = new byte[UtfColumn.WidthOf(column.Type)];
        var inv = CultureInfo.InvariantCulture;
        if (value is null && column.Type is UtfType.String or UtfType.Data or UtfType.Guid)
            throw new ArgumentException($"@UTF column '{column.Name}' has a null value but stores values; only a zero column holds nulls");
        switch (column.Type)
        {
            case UtfType.U8: b[0] = Convert.ToByte(value, inv); break;
            case UtfType.S8: b[0] = (byte)Convert.ToSByte(value, inv); break;
            case UtfType.U16: BinaryPrimitives.WriteUInt16BigEndian(b, Convert.ToUInt16(value, inv)); break;
            case UtfType.S16: BinaryPrimitives.WriteInt16BigEndian(b, Convert.ToInt16(value, inv)); break;
            case UtfType.U32: BinaryPrimitives.WriteUInt32BigEndian(b, Convert.ToUInt32(value, inv)); break;
            case UtfType.S32: BinaryPrimitives.WriteInt32BigEndian(b, Convert.ToInt32(value, inv)); break;
            case UtfType.U64: BinaryPrimitives.WriteUInt64BigEndian(b, Convert.ToUInt64(value, inv)); break;
            case UtfType.S64: BinaryPrimitives.WriteInt64BigEndian(b, Convert.ToInt64(value, inv)); break;
            case UtfType.Float: BinaryPrimitives.WriteSingleBigEndian(b, Convert.ToSingle(value, inv)); break;
            case UtfType.Double: BinaryPrimitives.WriteDoubleBigEndian(b, Convert.ToDouble(value, inv)); break;
            case UtfType.String: BinaryPrimitives.WriteUInt32BigEndian(b, (uint)strings.Add((string)value!)); break;
            case UtfType.Data:
                var bytes = (byte[])value!;
                BinaryPrimitives.WriteUInt32BigEndian(b, checked((uint)data.Length));
                BinaryPrimitives.WriteUInt32BigEndian(b.AsSpan(4), checked((uint)bytes.Length));
                data.Write(bytes);
                break;
            default:
                var guid = (byte[])value!;
                if (guid.Length != 16)
                    throw new ArgumentException($"@UTF column '{column.Name}' holds 16 bytes per value, not {guid.Length}");
                guid.CopyTo(b, 0);
                break;
        }
        return b;
    }

    private static byte[] BE32(long value)
    {
        var b = new byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(b, checked((uint)value));
        return b;
    }

    private static long Align8(long value) => (value + 7) & ~7L;

    /// <summary>NUL-terminated strings, each stored once.</summary>
    private sealed class StringPool(Encoding encoding)
    {
        private readonly Dictionary<string, long> _offsets = new(StringComparer.Ordinal);
        private readonly MemoryStream _bytes = new();

        public long Add(string value)
        {
            if (_offsets.TryGetValue(value, out long offset))
                return offset;
            offset = _bytes.Length;
            _bytes.Write(encoding.GetBytes(value));
            _bytes.WriteByte(0);
            return _offsets[value] = offset;
        }

        public byte[] ToArray() => _bytes.ToArray();
    }
}
