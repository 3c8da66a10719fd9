namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>One entry of the emulated CPK's content, in content order: an unchanged original entry or injected bytes.</summary>
/// <param name="Old">The original entry whose stored bytes are kept, or null for injected bytes.</param>
/// <param name="Input">The injected bytes (stored uncompressed), or null.</param>
internal sealed record CpkSlot(ArchiveEntry? Old, EntryInput? Input)
{
    public long Size => Input?.Length ?? Old!.Size;

    /// <summary>Where the builder put it (set by <see cref="CpkLayoutWriter"/>).</summary>
    public long Position { get; set; }
}

/// <summary>A table packet of the emulated CPK: rebuilt from a table, or copied as found.</summary>
internal sealed class CpkTablePlan
{
    private CpkTablePlan(string offsetColumn, string sizeColumn, long originalOffset, long originalSizeField, long originalLength)
    {
        OffsetColumn = offsetColumn;
        SizeColumn = sizeColumn;
        OriginalOffset = originalOffset;
        // How the original's size field relates to its packet: the packet's length, or (some packers) the packet with its
        // padding up to what follows. Kept as a convention, never as a byte count: a size field far past its packet (a
        // damaged or hostile header) would otherwise be carried into a file where it runs past the end.
        SizeFieldPadded = originalSizeField > originalLength;
        Length = originalLength;
    }

    public string OffsetColumn { get; }
    public string SizeColumn { get; }
    public long OriginalOffset { get; }
    /// <summary>The original's size field counted the packet's padding too.</summary>
    public bool SizeFieldPadded { get; }

    /// <summary>The packet to write the table into (null for a table copied as found).</summary>
    public CpkPacket? Packet { get; private init; }

    /// <summary>The table to write, edited by the builder.</summary>
    public UtfTable? Table { get; private init; }

    /// <summary>The table copied as found, or null.</summary>
    public CpkRawTable? Raw { get; private init; }

    /// <summary>The packet's bytes once written (null for a raw table).</summary>
    public byte[]? Bytes { get; set; }

    public long Length { get; set; }
    public long Offset { get; set; }

    public static CpkTablePlan Rebuilt(CpkPacket packet, UtfTable table, string offsetColumn, string sizeColumn, long originalSizeField) =>
        new(offsetColumn, sizeColumn, packet.Offset, originalSizeField, packet.Length) { Packet = packet, Table = table };

    public static CpkTablePlan Copied(CpkRawTable raw, long originalSizeField) =>
        new(raw.OffsetColumn, raw.SizeColumn, raw.Offset, originalSizeField, raw.Length) { Raw = raw };
}

/// <summary>Row copies for editing a table read from the original.</summary>
internal static class UtfRows
{
    /// <summary>A copy of <paramref name="table"/> with its own rows (values are immutable or replaced whole).</summary>
    public static UtfTable Clone(UtfTable table, List<object?[]>? rows = null) =>
        new(table.Name, table.Columns, rows ?? table.Rows.Select(r => (object?[])r.Clone()).ToList(), table.Masked, table.Version, table.Encoding);

    /// <summary>A new row: zero columns zero, constants their value, other strings CRI's "&lt;NULL&gt;", other data empty.</summary>
    public static object?[] Added(UtfTable table)
    {
        var row = table.NewRow();
        for (int c = 0; c < row.Length; c++)
        {
            var column = table.Columns[c];
            if (column.Storage != UtfStorage.Zero && row[c] is null)
                row[c] = column.Type == UtfType.String ? "<NULL>" : column.Type == UtfType.Guid ? new byte[16] : Array.Empty<byte>();
        }
        return row;
    }
}
