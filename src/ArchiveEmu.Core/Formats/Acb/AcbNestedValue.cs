using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// A value an ACB keeps about its streamed AWBs (the header copy, the hash): either raw bytes in the Header table's
/// data column (older ACBs, one AWB), or a nested @UTF table with one row per streamed AWB and the bytes in one of its
/// data columns (newer ACBs).
/// </summary>
/// <param name="Field">The Header table's data column holding it.</param>
/// <param name="Nested">The nested table, or null when the column holds the bytes raw.</param>
/// <param name="Values">The bytes, one per streamed AWB (one when raw).</param>
/// <param name="ValueColumn">The nested table's column holding the bytes ("Header", "Hash"); unused when raw.</param>
internal sealed record AcbNestedValue(UtfDataField Field, UtfTable? Nested, IReadOnlyList<byte[]> Values, string ValueColumn)
{
    /// <summary>The bytes the Header table's column holds after <paramref name="row"/>'s value is replaced.</summary>
    public byte[] With(int row, byte[] value)
    {
        if (Nested is null)
            return value;
        int column = Nested.ColumnIndex(ValueColumn);
        var rows = Nested.Rows.Select(r => (object?[])r.Clone()).ToList();
        rows[row][column] = value;
        var copy = new UtfTable(Nested.Name, Nested.Columns, rows, Nested.Masked, Nested.Version, Nested.Encoding);
        return UtfTableWriter.Write(copy);
    }
}
