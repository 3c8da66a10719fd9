using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// A validated CRI ACB cue sheet: one @UTF table named "Header" with one row at the start of the file (vgmstream
/// acb.c), and where it keeps its AWBs — the in-memory AWB (AwbFile), the streamed AWB's header copy
/// (StreamAwbAfs2Header) and its hash (StreamAwbHash). A damaged ACB is one <see cref="ArchiveFormatException"/> naming
/// the file and the offset. The whole table is read once to validate it (an ACB with an in-memory AWB holds it in the
/// table, so that is about three times the ACB's size in memory for the read); afterwards only the table's head and
/// the streamed AWBs' small values are kept.
/// </summary>
internal sealed class AcbFile
{
    private AcbFile(ArchiveSource source, bool masked, byte[] prefix, long tableSize, IReadOnlyList<UtfDataField> dataFields)
    {
        Source = source;
        Masked = masked;
        Prefix = prefix;
        TableSize = tableSize;
        DataFields = dataFields;
    }

    /// <summary>Where the ACB's bytes are (a file, or a slice of one such as a CPK entry).</summary>
    public ArchiveSource Source { get; }

    /// <summary>Whether the table was stored XOR-masked.</summary>
    public bool Masked { get; }

    /// <summary>The table's bytes before its data pool (header, schema, rows, strings), unmasked.</summary>
    internal byte[] Prefix { get; }

    /// <summary>The table's size from "@UTF" to the end its size field gives; bytes after it are kept as they are.</summary>
    public long TableSize { get; }

    /// <summary>Every data value of the Header table, where it is stored.</summary>
    public IReadOnlyList<UtfDataField> DataFields { get; }

    /// <summary>The in-memory AWB (AwbFile holding an AFS2 archive), or null.</summary>
    public UtfDataField? MemoryAwb { get; private init; }

    /// <summary>The streamed AWBs' header copies (StreamAwbAfs2Header), or null.</summary>
    public AcbNestedValue? StreamAwbHeader { get; private init; }

    /// <summary>The streamed AWBs' hashes (StreamAwbHash; MD5 of the whole AWB file), or null.</summary>
    public AcbNestedValue? StreamAwbHash { get; private init; }

    /// <summary>The in-memory AWB's bytes as an archive source, read in place.</summary>
    public ArchiveSource MemoryAwbSource() => MemoryAwb is { } awb
        ? new ArchiveSource(Source.Path, Source.Offset + awb.Offset, awb.Size, Source.Identity)
        : throw new InvalidOperationException($"{Source.Name}: the ACB holds no in-memory AWB");

    public static AcbFile Read(string path) => Read(ArchiveSource.File(path));

    public static AcbFile Read(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < UtfTableReader.HeaderSize)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for an ACB's @UTF table");
        var head = reader.ReadBytes(0, 8, "@UTF header");
        bool masked = !head.AsSpan().StartsWith("@UTF"u8);
        if (masked && !UtfMask.IsMaskedUtf(head))
            throw reader.Corrupt(0, "not an ACB (no @UTF table at the start)");
        if (masked)
            UtfMask.Apply(head);
        long size = 8L + BinaryPrimitives.ReadUInt32BigEndian(head.AsSpan(4));
        if (size > reader.Length)
            throw reader.Corrupt(4, $"@UTF table size {size} runs past the end of the {reader.Length}-byte file");
        var bytes = reader.ReadBytes(0, size, "ACB Header table");
        var table = UtfTableReader.Read(bytes, reader.Path, 0);
        if (table.Name != "Header")
            throw reader.Corrupt(0x14, $"the @UTF table is named '{table.Name}', not 'Header': not an ACB");
        if (table.Rows.Count != 1)
            throw reader.Corrupt(0x1C, $"the ACB Header table has {table.Rows.Count} rows, not 1");
        if (masked)
            UtfMask.Apply(bytes);

        long dataAt = 8L + BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(0x10));
        var fields = UtfDataFields.Of(table, bytes, 0);
        var parts = new Parts(reader, bytes, fields);
        // Only the table's head and the small values are kept: the in-memory AWB is read from the file when served.
        return new AcbFile(source, table.Masked, bytes.AsSpan(0, (int)dataAt).ToArray(), size, fields)
        {
            MemoryAwb = parts.MemoryAwb(),
            StreamAwbHeader = parts.Nested("StreamAwbAfs2Header", "Header", parts.CheckHeaderCopy),
            StreamAwbHash = parts.Nested("StreamAwbHash", "Hash", parts.CheckHash),
        };
    }

    /// <summary>The streamed AWB row named <paramref name="awbName"/> (the AWB's file name without extension), or the only one.</summary>
    public int StreamAwbRow(string awbName)
    {
        var header = StreamAwbHeader ?? throw new InvalidOperationException($"{Source.Name}: the ACB keeps no streamed AWB header");
        if (StreamAwbHash?.Nested is { } names && names.Has("Name"))
        {
            for (int row = 0; row < names.Rows.Count; row++)
                if (string.Equals(names.GetString(row, "Name"), awbName, StringComparison.OrdinalIgnoreCase))
                    return row < header.Values.Count ? row : throw new ArchiveFormatException(Source.Name, header.Field.Offset,
                        $"StreamAwbHash row {row} names AWB '{awbName}' but StreamAwbAfs2Header has {header.Values.Count} rows");
        }
        if (header.Values.Count == 1)
            return 0;
        throw new ArchiveFormatException(Source.Name, (StreamAwbHash ?? header).Field.Offset,
            $"the ACB keeps {header.Values.Count} streamed AWBs and none is named '{awbName}'");
    }

    /// <summary>Reads the parts of the Header row, each checked.</summary>
    private sealed class Parts(ArchiveFileReader reader, byte[] bytes, IReadOnlyList<UtfDataField> fields)
    {
        public UtfDataField? MemoryAwb()
        {
            var field = Find("AwbFile");
            // Older ACBs keep a CPK here (vgmstream acb.c); only an AFS2 archive is emulated.
            return field is { Size: >= AwbHeader.Size } && bytes.AsSpan((int)field.Offset).StartsWith("AFS2"u8) ? field : null;
        }

        public AcbNestedValue? Nested(string column, string valueColumn, Action<byte[], long, string> check)
        {
            var field = Find(column);
            if (field is null || field.Size == 0)
                return null;
            var data = bytes.AsSpan((int)field.Offset, (int)field.Size);
            if (!data.StartsWith("@UTF"u8) && !UtfMask.IsMaskedUtf(data))
            {
                check(data.ToArray(), field.Offset, column);
                return new AcbNestedValue(field, null, [data.ToArray()], valueColumn);
            }
            var nested = UtfTableReader.Read(data, reader.Path, field.Offset);
            int c = nested.ColumnIndex(valueColumn);
            if (c < 0 || nested.Columns[c].Type != UtfType.Data)
                throw reader.Corrupt(field.Offset, $"the {column} table '{nested.Name}' has no {valueColumn} data column");
            var values = new byte[nested.Rows.Count][];
            for (int row = 0; row < values.Length; row++)
            {
                values[row] = nested.Rows[row][c] as byte[] ?? [];
                check(values[row], field.Offset, $"{column} row {row}");
            }
            return new AcbNestedValue(field, nested, values, valueColumn);
        }

        /// <summary>A header copy is an AFS2 header whose id and position table it holds whole.</summary>
        public void CheckHeaderCopy(byte[] copy, long at, string what)
        {
            if (copy.Length < AwbHeader.Size || !copy.AsSpan().StartsWith("AFS2"u8))
                throw reader.Corrupt(at, $"{what} ({copy.Length} bytes) is not an AFS2 header");
            if (copy[5] is not (2 or 4 or 8) || copy[6] is not (2 or 4))
                throw reader.Corrupt(at, $"{what}: AFS2 widths {copy[5]} and {copy[6]} are not 2/4/8 and 2/4");
            long end = CopiedTableEnd(copy);
            if (end > copy.Length)
                throw reader.Corrupt(at, $"{what}: the copy's {end}-byte id and position table runs past its {copy.Length} bytes");
        }

        public void CheckHash(byte[] hash, long at, string what)
        {
            if (hash.Length != 16)
                throw reader.Corrupt(at, $"{what} is {hash.Length} bytes, not a 16-byte MD5");
        }

        private UtfDataField? Find(string column) => fields.FirstOrDefault(f => f.Column == column && f.Row == 0);
    }

    /// <summary>Where an AFS2 header's id and position table ends, from its own count and widths.</summary>
    internal static long CopiedTableEnd(ReadOnlySpan<byte> header)
    {
        long count = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        return AwbHeader.Size + count * header[6] + (count + 1) * header[5];
    }
}
