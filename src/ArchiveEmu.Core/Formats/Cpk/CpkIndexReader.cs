namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>Reads and validates a CPK's header, TOC or ITOC, ETOC and the tables kept as found, into a <see cref="CpkIndex"/>.</summary>
internal static class CpkIndexReader
{
    /// <summary>Tables copied as found: (offset column, size column, magic or null when unsure).</summary>
    private static readonly (string Offset, string Size)[] RawTables =
        [("GtocOffset", "GtocSize"), ("HtocOffset", "HtocSize"), ("HgtocOffset", "HgtocSize")];

    public static CpkIndex Read(ArchiveFileReader reader)
    {
        var header = ReadHeader(reader);
        var h = header.Table;

        long Field(string name) => h.GetInteger(0, name) is { } v and >= 0 ? v
            : throw reader.Corrupt(CpkPacket.HeaderSize, $"header field {name} is not a size or offset this reader can use");
        long align = Math.Max(1, Field("Align"));
        if (align > MaxAlignment)
            throw reader.Corrupt(CpkPacket.HeaderSize, $"Align {align} is above the {MaxAlignment} this reader accepts");
        long contentOffset = Field("ContentOffset");
        long tocOffset = Field("TocOffset"), itocOffset = Field("ItocOffset"), etocOffset = Field("EtocOffset");
        if (contentOffset > reader.Length)
            throw reader.Corrupt(CpkPacket.HeaderSize, $"ContentOffset {contentOffset} is past the end of the {reader.Length}-byte file");

        var toc = tocOffset > 0 ? CpkPacket.Read(reader, tocOffset, "TOC ", "TOC") : null;
        var itoc = itocOffset > 0 ? CpkPacket.Read(reader, itocOffset, "ITOC", "ITOC") : null;
        var etoc = etocOffset > 0 ? CpkPacket.Read(reader, etocOffset, "ETOC", "ETOC") : null;
        var raw = new List<CpkRawTable>();
        foreach (var (offsetColumn, sizeColumn) in RawTables)
        {
            long offset = Field(offsetColumn);
            if (offset == 0)
                continue;
            var (_, size) = CpkPacket.ReadHead(reader, offset, null, offsetColumn[..^"Offset".Length].ToUpperInvariant());
            raw.Add(new CpkRawTable(offsetColumn, sizeColumn, offset, CpkPacket.HeaderSize + size));
        }

        if (toc is not null)
        {
            long fileOffsetBase = Math.Min(contentOffset, tocOffset);
            var layout = new CpkLayout(align, contentOffset, fileOffsetBase, toc, itoc, null, null, etoc, raw);
            var (entries, extract, ids) = NamedEntries(reader, toc, fileOffsetBase);
            return new CpkIndex(reader.Source, entries, header, layout, extract, ids);
        }
        if (itoc is not null)
        {
            var (l, hi) = ItocParts(reader, itoc);
            var layout = new CpkLayout(align, contentOffset, contentOffset, null, itoc, l, hi, etoc, raw);
            var (entries, extract, ids) = IdEntries(reader, layout, itoc);
            return new CpkIndex(reader.Source, entries, header, layout, extract, ids);
        }
        throw reader.Corrupt(CpkPacket.HeaderSize, "the CPK has neither a TOC nor an ITOC");
    }

    /// <summary>
    /// Whether the CPK is ID-only (an ItocOffset and no TocOffset), from its header packet alone: the one read routing makes
    /// of a CPK a flat mod folder targets, since <c>7.dds</c> is entry ID 7 there and a file named so in a named CPK.
    /// </summary>
    public static bool IsIdOnly(ArchiveFileReader reader)
    {
        var h = ReadHeader(reader).Table;
        return h.GetInteger(0, "TocOffset") is null or <= 0 && h.GetInteger(0, "ItocOffset") is > 0;
    }

    /// <summary>The "CPK " packet at 0 with its one-row CpkHeader table.</summary>
    private static CpkPacket ReadHeader(ArchiveFileReader reader)
    {
        if (reader.Length < CpkPacket.HeaderSize || !reader.ReadBytes(0, 4, "magic").AsSpan().SequenceEqual("CPK "u8))
            throw reader.Corrupt(0, "not a CPK archive (no 'CPK ' magic)");
        var header = CpkPacket.Read(reader, 0, "CPK ", "CPK header");
        if (header.Table.Rows.Count != 1)
            throw reader.Corrupt(CpkPacket.HeaderSize, $"the CpkHeader table has {header.Table.Rows.Count} rows, not 1");
        return header;
    }

    private static (ArchiveEntry[], long[], long[]) NamedEntries(ArchiveFileReader reader, CpkPacket toc, long fileOffsetBase)
    {
        var t = toc.Table;
        long at = toc.Offset + CpkPacket.HeaderSize;
        foreach (var column in new[] { "FileName", "FileSize", "FileOffset" })
            if (!t.Has(column))
                throw reader.Corrupt(at, $"the TOC has no {column} column");
        if (t.Rows.Count > MaxEntries)
            throw reader.Corrupt(at, $"the TOC lists {t.Rows.Count} entries, more than {MaxEntries}");
        // Names are strings: a column of another type would read as no name and be written back with a string in it.
        foreach (var column in new[] { "DirName", "FileName", "UserString" })
            if (t.ColumnIndex(column) is var c and >= 0 && t.Columns[c].Type != UtfType.String)
                throw reader.Corrupt(at, $"the TOC's {column} column holds {t.Columns[c].Type} values, not strings");
        var entries = new ArchiveEntry[t.Rows.Count];
        var extract = new long[entries.Length];
        var ids = new long[entries.Length];
        // Columns found once: a P5R CPK's TOC has 40,000 rows.
        int dirColumn = t.ColumnIndex("DirName"), fileColumn = t.ColumnIndex("FileName");
        int sizeColumn = t.ColumnIndex("FileSize"), offsetColumn = t.ColumnIndex("FileOffset");
        int extractColumn = t.ColumnIndex("ExtractSize"), idColumn = t.ColumnIndex("ID");
        for (int i = 0; i < entries.Length; i++)
        {
            var row = t.Rows[i];
            string? dir = dirColumn < 0 ? null : row[dirColumn] as string;
            string file = row[fileColumn] as string ?? "";
            string name = string.IsNullOrEmpty(dir) ? file : dir + "/" + file;
            long size = Number(reader, t, i, sizeColumn, at, name);
            long fileOffset = Number(reader, t, i, offsetColumn, at, name);
            extract[i] = extractColumn >= 0 ? Number(reader, t, i, extractColumn, at, name) : size;
            ids[i] = idColumn >= 0 ? Number(reader, t, i, idColumn, at, name) : i;
            long offset = fileOffsetBase + fileOffset;
            if (fileOffset > reader.Length || !reader.Contains(offset, size))
                throw reader.Corrupt(at, $"TOC row {i} '{name}': [{offset}, {offset + size}) (FileOffset {fileOffset} + {fileOffsetBase}) is outside the {reader.Length}-byte file");
            if (extract[i] < size)
                throw reader.Corrupt(at, $"TOC row {i} '{name}': ExtractSize {extract[i]} is below FileSize {size}");
            entries[i] = new ArchiveEntry(i, name, offset, size);
        }
        return (entries, extract, ids);
    }

    private static (UtfTable?, UtfTable?) ItocParts(ArchiveFileReader reader, CpkPacket itoc)
    {
        var t = itoc.Table;
        long at = itoc.Offset + CpkPacket.HeaderSize;
        if (t.Rows.Count != 1 || !t.Has("DataL") || !t.Has("DataH"))
            return (null, null); // an ITOC that maps IDs to TOC rows (with a TOC) has no DataL/DataH
        UtfTable? Part(string column) => t.Get(0, column) is byte[] { Length: > 0 } bytes ? UtfTableReader.Read(bytes, reader.Path, at) : null;
        return (Part("DataL"), Part("DataH"));
    }

    private static (ArchiveEntry[], long[], long[]) IdEntries(ArchiveFileReader reader, CpkLayout layout, CpkPacket itoc)
    {
        long at = itoc.Offset + CpkPacket.HeaderSize;
        if (layout.ItocL is null && layout.ItocH is null && !itoc.Table.Has("DataL"))
            throw reader.Corrupt(at, "the ITOC of a CPK without a TOC has no DataL/DataH tables");
        var rows = new List<(long Id, long Size, long Extract)>();
        foreach (var part in new[] { layout.ItocL, layout.ItocH })
        {
            if (part is null)
                continue;
            if ((long)rows.Count + part.Rows.Count > MaxEntries)
                throw reader.Corrupt(at, $"the ITOC lists more than {MaxEntries} entries");
            for (int i = 0; i < part.Rows.Count; i++)
            {
                long id = Number(reader, part, i, "ID", at, $"ID row {i}");
                long size = Number(reader, part, i, "FileSize", at, $"ID {id}");
                long extract = part.Has("ExtractSize") ? Number(reader, part, i, "ExtractSize", at, $"ID {id}") : size;
                if (extract < size)
                    throw reader.Corrupt(at, $"ITOC ID {id}: ExtractSize {extract} is below FileSize {size}");
                rows.Add((id, size, extract));
            }
        }
        rows.Sort((a, b) => a.Id.CompareTo(b.Id));
        var entries = new ArchiveEntry[rows.Count];
        long position = layout.ContentOffset;
        for (int i = 0; i < rows.Count; i++)
        {
            if (i > 0 && rows[i].Id == rows[i - 1].Id)
                throw reader.Corrupt(at, $"ITOC lists ID {rows[i].Id} twice");
            // Entries follow one another in ID order from ContentOffset, each on the alignment (CriPakTools ReadITOC).
            position = layout.Align(position);
            if (!reader.Contains(position, rows[i].Size))
                throw reader.Corrupt(at, $"ITOC ID {rows[i].Id}: [{position}, {position + rows[i].Size}) is outside the {reader.Length}-byte file");
            entries[i] = new ArchiveEntry(i, null, position, rows[i].Size);
            position += rows[i].Size;
        }
        return (entries, rows.Select(r => r.Extract).ToArray(), rows.Select(r => r.Id).ToArray());
    }

    private static long Number(ArchiveFileReader reader, UtfTable t, int row, string column, long at, string what) =>
        Number(reader, t, row, t.ColumnIndex(column), at, what);

    private static long Number(ArchiveFileReader reader, UtfTable t, int row, int column, long at, string what) =>
        t.GetInteger(row, column) is { } v and >= 0 ? v
            : throw reader.Corrupt(at, $"{t.Name} row {row} ({what}): {(column < 0 ? "a column" : t.Columns[column].Name)} is {(column < 0 ? null : t.Rows[row][column]) ?? "missing"}, not a size, offset or ID");

    private const int MaxEntries = CpkFormat.MaxEntries;

    // CRI writes a 16-bit Align; anything near the file size is a hostile value that would overflow rounding.
    private const long MaxAlignment = 1 << 30;
}
