using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>The value type of an @UTF column: the low nibble of its flag byte.</summary>
public enum UtfType : byte
{
    U8 = 0x0, S8 = 0x1, U16 = 0x2, S16 = 0x3, U32 = 0x4, S32 = 0x5, U64 = 0x6, S64 = 0x7,
    Float = 0x8, Double = 0x9, String = 0xA, Data = 0xB,
}

/// <summary>Where an @UTF column keeps its value: the high nibble of its flag byte (0x10 = has a name).</summary>
public enum UtfStorage : byte
{
    /// <summary>No value stored: every row reads zero (or no string / no data).</summary>
    Zero = 0x10,

    /// <summary>One value in the schema, the same for every row.</summary>
    Constant = 0x30,

    /// <summary>A value in every row.</summary>
    PerRow = 0x50,
}

/// <summary>
/// One column to write: Zero takes no values, Constant one, PerRow one per row. Integers are any integral type,
/// Float a float, Double a double, String a string (null = the "&lt;NULL&gt;" CRI writes for no string), Data a byte[] (null = none).
/// </summary>
public sealed record UtfColumn(string Name, UtfType Type, UtfStorage Storage, IReadOnlyList<object?> Values)
{
    /// <summary>A per-row column, or a constant one when every row holds the same value (as CRI's tools store them).</summary>
    public static UtfColumn Auto(string name, UtfType type, IReadOnlyList<object?> values) =>
        values.Count > 1 && values.All(v => ValueEquals(v, values[0]))
            ? new UtfColumn(name, type, UtfStorage.Constant, [values[0]])
            : new UtfColumn(name, type, UtfStorage.PerRow, values);

    /// <summary>A column that stores no value.</summary>
    public static UtfColumn Zero(string name, UtfType type) => new(name, type, UtfStorage.Zero, []);

    /// <summary>A column that stores one value for every row.</summary>
    public static UtfColumn Constant(string name, UtfType type, object? value) => new(name, type, UtfStorage.Constant, [value]);

    private static bool ValueEquals(object? a, object? b) =>
        a is byte[] x && b is byte[] y ? x.AsSpan().SequenceEqual(y) : Equals(a, b);
}

/// <summary>
/// Writes CRI @UTF tables for tests, from the public format descriptions (kept apart from the product's reader and
/// writer): big-endian, a 0x20-byte header, the schema, the rows, the string pool (starting "&lt;NULL&gt;", then the
/// table name), the data pool; optionally XOR-masked as some games ship them.
/// </summary>
public static class UtfTestWriter
{
    /// <summary>The string CRI's writers store for "no string"; also the first string of every pool.</summary>
    public const string NullString = "<NULL>";

    /// <summary>
    /// Writes the table; <paramref name="rows"/> must match every per-row column's value count. The version at 0x08
    /// is 0 in older files and 1 in newer ones (vgmstream's notes); readers that take 0x08 as a 32-bit rows offset
    /// only read version 0.
    /// </summary>
    public static byte[] Write(string tableName, int rows, IReadOnlyList<UtfColumn> columns, bool masked = false, ushort version = 1)
    {
        var strings = new StringPool();
        strings.Add(NullString);
        int nameOffset = strings.Add(tableName);
        var data = new MemoryStream();
        var schema = new MemoryStream();
        int rowWidth = 0;
        foreach (var column in columns)
        {
            if (column.Storage == UtfStorage.PerRow && column.Values.Count != rows)
                throw new ArgumentException($"column {column.Name} has {column.Values.Count} values for {rows} rows");
            if (column.Storage == UtfStorage.Constant && column.Values.Count != 1)
                throw new ArgumentException($"constant column {column.Name} needs exactly one value");
            schema.WriteByte((byte)((byte)column.Storage | (byte)column.Type));
            schema.Write(U32(strings.Add(column.Name)));
            if (column.Storage == UtfStorage.Constant)
                schema.Write(Value(column.Type, column.Values[0], strings, data));
            if (column.Storage == UtfStorage.PerRow)
                rowWidth += Width(column.Type);
        }

        var rowBytes = new MemoryStream();
        for (int row = 0; row < rows; row++)
            foreach (var column in columns.Where(c => c.Storage == UtfStorage.PerRow))
                rowBytes.Write(Value(column.Type, column.Values[row], strings, data));

        // Offsets in the header count from byte 8, just after the size field.
        int rowsOffset = 0x20 + (int)schema.Length;
        int stringsOffset = rowsOffset + (int)rowBytes.Length;
        var stringBytes = strings.ToArray();
        int dataOffset = Align(stringsOffset + stringBytes.Length, 8);
        int tableEnd = Align(dataOffset + (int)data.Length, 8);
        var table = new byte[tableEnd];
        "@UTF"u8.CopyTo(table);
        BinaryPrimitives.WriteUInt32BigEndian(table.AsSpan(0x04), (uint)(tableEnd - 8));
        BinaryPrimitives.WriteUInt16BigEndian(table.AsSpan(0x08), version);
        BinaryPrimitives.WriteUInt16BigEndian(table.AsSpan(0x0A), checked((ushort)(rowsOffset - 8)));
        BinaryPrimitives.WriteUInt32BigEndian(table.AsSpan(0x0C), (uint)(stringsOffset - 8));
        BinaryPrimitives.WriteUInt32BigEndian(table.AsSpan(0x10), (uint)(dataOffset - 8));
        BinaryPrimitives.WriteUInt32BigEndian(table.AsSpan(0x14), (uint)nameOffset);
        BinaryPrimitives.WriteUInt16BigEndian(table.AsSpan(0x18), checked((ushort)columns.Count));
        BinaryPrimitives.WriteUInt16BigEndian(table.AsSpan(0x1A), checked((ushort)rowWidth));
        BinaryPrimitives.WriteUInt32BigEndian(table.AsSpan(0x1C), (uint)rows);
        schema.ToArray().CopyTo(table, 0x20);
        rowBytes.ToArray().CopyTo(table, rowsOffset);
        stringBytes.CopyTo(table, stringsOffset);
        data.ToArray().CopyTo(table, dataOffset);
        if (masked)
            Mask(table);
        return table;
    }

    /// <summary>XORs the bytes with CRI's table mask in place; the mask is its own inverse.</summary>
    public static void Mask(Span<byte> bytes)
    {
        uint m = 0x655F;
        for (int i = 0; i < bytes.Length; i++)
        {
            bytes[i] ^= (byte)m;
            m *= 0x4115;
        }
    }

    /// <summary>The bytes a value of this type takes in a row or in the schema.</summary>
    public static int Width(UtfType type) => type switch
    {
        UtfType.U8 or UtfType.S8 => 1,
        UtfType.U16 or UtfType.S16 => 2,
        UtfType.U32 or UtfType.S32 or UtfType.Float or UtfType.String => 4,
        UtfType.U64 or UtfType.S64 or UtfType.Double or UtfType.Data => 8,
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, "not an @UTF type"),
    };

    private static byte[] Value(UtfType type, object? value, StringPool strings, MemoryStream data)
    {
        var bytes = new byte[Width(type)];
        switch (type)
        {
            case UtfType.String:
                BinaryPrimitives.WriteUInt32BigEndian(bytes, (uint)strings.Add((string?)value ?? NullString));
                break;
            case UtfType.Data:
                var blob = (byte[]?)value ?? [];
                // Each blob starts on an 8-byte boundary of the data pool; an empty one is offset 0, size 0.
                if (blob.Length > 0)
                {
                    data.Write(new byte[Align((int)data.Length, 8) - (int)data.Length]);
                    BinaryPrimitives.WriteUInt32BigEndian(bytes, (uint)data.Length);
                    data.Write(blob);
                }
                BinaryPrimitives.WriteUInt32BigEndian(bytes.AsSpan(4), (uint)blob.Length);
                break;
            case UtfType.Float:
                BinaryPrimitives.WriteSingleBigEndian(bytes, Convert.ToSingle(value ?? 0f));
                break;
            case UtfType.Double:
                BinaryPrimitives.WriteDoubleBigEndian(bytes, Convert.ToDouble(value ?? 0d));
                break;
            default:
                ulong bits = value switch
                {
                    null => 0,
                    ulong u => u,
                    _ => unchecked((ulong)Convert.ToInt64(value)),
                };
                for (int i = 0; i < bytes.Length; i++)
                    bytes[i] = (byte)(bits >> (8 * (bytes.Length - 1 - i)));
                break;
        }
        return bytes;
    }

    private static byte[] U32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(bytes, (uint)value);
        return bytes;
    }

    private static int Align(int value, int alignment) => (value + alignment - 1) / alignment * alignment;

    // NUL-terminated UTF-8 strings, each stored once.
    private sealed class StringPool
    {
        private readonly MemoryStream _bytes = new();
        private readonly Dictionary<string, int> _offsets = new(StringComparer.Ordinal);

        public int Add(string value)
        {
            if (_offsets.TryGetValue(value, out int offset))
                return offset;
            offset = (int)_bytes.Length;
            _bytes.Write(Encoding.UTF8.GetBytes(value));
            _bytes.WriteByte(0);
            _offsets[value] = offset;
            return offset;
        }

        public byte[] ToArray() => _bytes.ToArray();
    }
}
