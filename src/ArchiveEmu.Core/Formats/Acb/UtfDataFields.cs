using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// One data value of an @UTF table where it is stored: the 8-byte field (u32 offset, u32 size, big-endian) and the bytes
/// it points at, both as offsets in the file. A constant column's field is in the schema, a per-row one in its row.
/// </summary>
/// <param name="Column">The column's name.</param>
/// <param name="Row">The row (0 for a constant column, whose one field every row shares).</param>
/// <param name="FieldAt">Where the offset/size pair is.</param>
/// <param name="Offset">Where the data starts (the data pool's start plus the stored offset).</param>
/// <param name="Size">The data's size in bytes.</param>
internal sealed record UtfDataField(string Column, int Row, long FieldAt, long Offset, long Size)
{
    /// <summary>Where the data ends.</summary>
    public long End => Offset + Size;
}

/// <summary>
/// Finds where every data value of a table read by <see cref="UtfTableReader"/> is stored, from the layout the reader
/// validated (schema at 0x20: a flag byte, a u32 name, a constant's value; rows at the rows offset, per-row values in
/// column order). Offsets and sizes were checked against the data pool by the reader, so they are read as they are.
/// </summary>
internal static class UtfDataFields
{
    /// <summary>
    /// The data fields of <paramref name="table"/>, whose unmasked bytes are <paramref name="bytes"/>, stored at
    /// <paramref name="tableAt"/> in the file; zero-stored columns have none.
    /// </summary>
    public static IReadOnlyList<UtfDataField> Of(UtfTable table, ReadOnlySpan<byte> bytes, long tableAt)
    {
        long rowsAt = 8L + BinaryPrimitives.ReadUInt16BigEndian(bytes[0xA..]);
        long dataAt = 8L + BinaryPrimitives.ReadUInt32BigEndian(bytes[0x10..]);
        int rowWidth = BinaryPrimitives.ReadUInt16BigEndian(bytes[0x1A..]);
        var fields = new List<UtfDataField>();
        long schemaAt = UtfTableReader.HeaderSize;
        int rowOffset = 0; // where the column's value sits within a row
        foreach (var column in table.Columns)
        {
            int width = UtfColumn.WidthOf(column.Type);
            if (column.Storage == UtfStorage.Constant)
            {
                if (column.Type == UtfType.Data)
                    fields.Add(Field(column.Name, 0, schemaAt + 5, bytes, dataAt, tableAt));
                schemaAt += 5 + width;
                continue;
            }
            schemaAt += 5;
            if (column.Storage != UtfStorage.PerRow)
                continue;
            if (column.Type == UtfType.Data)
                for (int row = 0; row < table.Rows.Count; row++)
                    fields.Add(Field(column.Name, row, rowsAt + (long)row * rowWidth + rowOffset, bytes, dataAt, tableAt));
            rowOffset += width;
        }
        return fields;
    }

    private static UtfDataField Field(string column, int row, long fieldAt, ReadOnlySpan<byte> bytes, long dataAt, long tableAt)
    {
        long offset = BinaryPrimitives.ReadUInt32BigEndian(bytes[(int)fieldAt..]);
        long size = BinaryPrimitives.ReadUInt32BigEndian(bytes[((int)fieldAt + 4)..]);
        return new UtfDataField(column, row, tableAt + fieldAt, tableAt + dataAt + offset, size);
    }
}
