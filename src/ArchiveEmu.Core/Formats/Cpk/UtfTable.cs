namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// A CRI @UTF table in memory: name, columns in order, one value per column in every row (zero and constant columns
/// hold their value in each row too), and how it was stored (masked, the encoding byte). Read by
/// <see cref="UtfTableReader"/>, written by <see cref="UtfTableWriter"/>; rows may be edited in between.
/// </summary>
internal sealed class UtfTable
{
    public UtfTable(string name, IReadOnlyList<UtfColumn> columns, List<object?[]> rows, bool masked = false, byte version = 0, byte encoding = 0)
    {
        Name = name;
        Columns = columns;
        Rows = rows;
        Masked = masked;
        Version = version;
        Encoding = encoding;
    }

    /// <summary>The table's name ("CpkHeader", "CpkTocInfo", …).</summary>
    public string Name { get; }

    public IReadOnlyList<UtfColumn> Columns { get; }

    /// <summary>One array per row, one value per column.</summary>
    public List<object?[]> Rows { get; }

    /// <summary>Whether the table was XOR-masked where it was stored (and is masked again when written).</summary>
    public bool Masked { get; }

    /// <summary>The byte at 0x08 (0 or 1 in known files), kept as found.</summary>
    public byte Version { get; }

    /// <summary>The byte at 0x09: 0 Shift-JIS, 1 UTF-8 strings (CriFsV2Lib CriTableMetadata.GetEncoding).</summary>
    public byte Encoding { get; }

    /// <summary>The index of the column named <paramref name="name"/>, or -1.</summary>
    public int ColumnIndex(string name)
    {
        for (int i = 0; i < Columns.Count; i++)
            if (Columns[i].Name == name)
                return i;
        return -1;
    }

    /// <summary>True when the table has a column named <paramref name="name"/>.</summary>
    public bool Has(string name) => ColumnIndex(name) >= 0;

    /// <summary>The value of column <paramref name="name"/> in row <paramref name="row"/>, or null when there is no such column.</summary>
    public object? Get(int row, string name)
    {
        int c = ColumnIndex(name);
        return c < 0 ? null : Rows[row][c];
    }

    /// <summary>An integer column's value as a long (0 when the column is absent); a u64 above long.MaxValue is null.</summary>
    public long? GetInteger(int row, string name) => GetInteger(row, ColumnIndex(name));

    /// <summary><see cref="GetInteger(int, string)"/> by the column's index (-1: absent), for a loop over many rows.</summary>
    public long? GetInteger(int row, int column) => (column < 0 ? null : Rows[row][column]) switch
    {
        null => column >= 0 ? null : 0,
        byte v => v, sbyte v => v, ushort v => v, short v => v, uint v => v, int v => v, long v => v,
        ulong v => v <= long.MaxValue ? (long)v : null,
        _ => null,
    };

    /// <summary>A string column's value, or null when absent or stored as zero.</summary>
    public string? GetString(int row, string name) => Get(row, name) as string;

    /// <summary>Sets integer column <paramref name="name"/> of <paramref name="row"/> when the table has it; a value its type cannot hold is an OverflowException.</summary>
    public void SetInteger(int row, string name, long value)
    {
        int c = ColumnIndex(name);
        if (c >= 0)
            Rows[row][c] = Columns[c].ToIntegerValue(value);
    }

    /// <summary>A row of zeros (null strings and data), for a row to fill in.</summary>
    public object?[] NewRow() => Columns.Select(c => c.Storage == UtfStorage.Constant ? c.Constant : c.ZeroValue).ToArray();
}
