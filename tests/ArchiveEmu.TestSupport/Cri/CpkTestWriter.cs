using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// Writes CPK originals for tests from the public format descriptions (kept apart from the product's reader and
/// builder), laid out as CRI's packer lays them out: the "CPK " header packet padded to 0x800 with "(c)CRI" at
/// 0x7FA, the TOC or ITOC packet at 0x800, the content from the next alignment boundary with every entry on one,
/// and an ETOC packet after the content when asked for. Named CPKs keep FileOffset from the TOC packet's start.
/// </summary>
public static class CpkTestWriter
{
    /// <summary>The Tvers string of the CRI packer that made the file (one seen in real named CPKs).</summary>
    public const string DefaultTvers = "CPKMC2.45.00, DLL3.15.00";

    /// <summary>
    /// One entry of a named CPK; Id defaults to its index, UserString to CRI's "&lt;NULL&gt;". Compress stores it
    /// CRILAYLA-compressed where that is smaller (as CRI's packer decides), else as is.
    /// </summary>
    public sealed record NamedEntry(string DirName, string FileName, byte[] Content, uint? Id = null, string? UserString = null, bool Compress = false);

    /// <summary>One entry of an ID-only CPK (IDs are 16-bit in the ITOC); Compress as for <see cref="NamedEntry"/>.</summary>
    public sealed record IdEntry(ushort Id, byte[] Content, bool Compress = false);

    /// <summary>
    /// Alignment of every entry and of the content (the header's Align, 16-bit); Masked XOR-masks every table;
    /// WithEtoc adds the ETOC (per entry UpdateDateTime and LocalDir); UtfVersion is every table's version (0 or 1).
    /// PaddedSizes makes each table's size field count its packet's padding up to the next alignment boundary (the
    /// file then ends on one); TotalFiles and TotalDataSize, when given, are stored in the header as given.
    /// </summary>
    public sealed record Options(
        int Alignment = 0x800, bool Masked = false, bool WithEtoc = false, ulong UpdateDateTime = 0, string Tvers = DefaultTvers,
        ushort UtfVersion = 1, bool PaddedSizes = false, uint? TotalFiles = null, ulong? TotalDataSize = null);

    private const int TablesStart = 0x800;

    /// <summary>Writes a named CPK (CpkMode 1): header, TOC, the entries in the given order, optionally the ETOC.</summary>
    public static byte[] WriteNamed(IReadOnlyList<NamedEntry> entries, Options? options = null)
    {
        var stored = entries.Select(e => Stored(e.Content, e.Compress)).ToList();
        var plan = PlanNamed(entries, stored.Select(s => (long)s.Length).ToList(), entries.Select(e => (long)e.Content.Length).ToList(), options ?? new Options());
        var output = new byte[plan.End];
        plan.Front.CopyTo(output, 0);
        for (int i = 0; i < stored.Count; i++)
            stored[i].CopyTo(output, plan.Positions[i]);
        plan.Etoc?.CopyTo(output, plan.EtocOffset);
        return output;
    }

    /// <summary>
    /// Writes a named CPK of entries stored as they are (no compression) to <paramref name="output"/> one entry at a time, for
    /// archives too big to hold in memory: <paramref name="sizes"/> gives each entry's length (its Content is ignored) and
    /// <paramref name="fill"/> writes entry i's bytes into the span it is given. The same bytes as <see cref="WriteNamed"/>.
    /// </summary>
    public static void WriteNamed(Stream output, IReadOnlyList<NamedEntry> entries, IReadOnlyList<int> sizes, Action<int, Span<byte>> fill, Options? options = null)
    {
        var lengths = sizes.Select(s => (long)s).ToList();
        var plan = PlanNamed(entries, lengths, lengths, options ?? new Options());
        output.Write(plan.Front);
        long at = plan.Front.Length;
        var buffer = new byte[Math.Max(1, sizes.DefaultIfEmpty(0).Max())];
        for (int i = 0; i < entries.Count; i++)
        {
            WriteZeros(output, plan.Positions[i] - at);
            fill(i, buffer.AsSpan(0, sizes[i]));
            output.Write(buffer, 0, sizes[i]);
            at = plan.Positions[i] + sizes[i];
        }
        WriteZeros(output, (plan.Etoc is null ? plan.End : plan.EtocOffset) - at);
        if (plan.Etoc is not null)
        {
            output.Write(plan.Etoc);
            WriteZeros(output, plan.End - plan.EtocOffset - plan.Etoc.Length); // PaddedSizes: the ETOC's size field counts its padding
        }
    }

    private static void WriteZeros(Stream output, long count)
    {
        Span<byte> zeros = stackalloc byte[4096];
        zeros.Clear();
        for (; count > 0; count -= Math.Min(count, zeros.Length))
            output.Write(zeros[..(int)Math.Min(count, zeros.Length)]);
    }

    /// <summary>A named CPK's bytes before its content (header and TOC), where each entry goes, and the ETOC packet after the content.</summary>
    private sealed record NamedPlan(byte[] Front, long[] Positions, byte[]? Etoc, long EtocOffset, long End);

    private static NamedPlan PlanNamed(IReadOnlyList<NamedEntry> entries, IReadOnlyList<long> stored, IReadOnlyList<long> extracted, Options o)
    {
        // FileOffset counts from the TOC packet, so the TOC's size (which holds the offsets) must be known first:
        // offsets are laid out from a content start, and the start moves until the TOC fits before it.
        long contentOffset = Align(TablesStart + 0x10, o.Alignment);
        while (true)
        {
            var positions = Positions(stored, contentOffset, o.Alignment, out long contentEnd);
            var toc = UtfTestWriter.Write("CpkTocInfo", entries.Count,
            [
                UtfColumn.Auto("DirName", UtfType.String, entries.Select(e => (object?)e.DirName).ToList()),
                new("FileName", UtfType.String, UtfStorage.PerRow, entries.Select(e => (object?)e.FileName).ToList()),
                new("FileSize", UtfType.U32, UtfStorage.PerRow, stored.Select(s => (object?)(uint)s).ToList()),
                new("ExtractSize", UtfType.U32, UtfStorage.PerRow, extracted.Select(s => (object?)(uint)s).ToList()),
                new("FileOffset", UtfType.U64, UtfStorage.PerRow, positions.Select(p => (object?)(ulong)(p - TablesStart)).ToList()),
                new("ID", UtfType.U32, UtfStorage.PerRow, entries.Select((e, i) => (object?)(e.Id ?? (uint)i)).ToList()),
                UtfColumn.Auto("UserString", UtfType.String, entries.Select(e => (object?)e.UserString).ToList()),
            ], o.Masked, o.UtfVersion);
            long tocSize = 0x10 + toc.Length;
            if (TablesStart + tocSize > contentOffset)
            {
                contentOffset = Align(TablesStart + tocSize, o.Alignment);
                continue;
            }

            var etoc = o.WithEtoc ? Etoc(entries, o) : null;
            long etocOffset = contentEnd;
            long etocSize = etoc is null ? 0 : SizeField(0x10 + etoc.Length, o);
            var header = Header(o, mode: 1, files: entries.Count, contentOffset, contentEnd - contentOffset,
                toc: (TablesStart, SizeField(tocSize, o)), itoc: null, etoc: etoc is null ? null : (etocOffset, etocSize),
                packedSize: stored.Sum(), dataSize: extracted.Sum(), sorted: IsSorted(entries));
            var front = new byte[contentOffset];
            WriteFront(front, Packet("CPK ", header, o.Masked), Packet("TOC ", toc, o.Masked));
            return new NamedPlan(front, positions, etoc is null ? null : Packet("ETOC", etoc, o.Masked), etocOffset, etoc is null ? contentEnd : etocOffset + etocSize);
        }
    }

    /// <summary>Writes an ID-only CPK (CpkMode 0): header, ITOC with DataL (sizes that fit 16 bits) and DataH, the entries in ID order.</summary>
    public static byte[] WriteIdOnly(IReadOnlyList<IdEntry> entries, Options? options = null)
    {
        var o = options ?? new Options();
        var sorted = entries.OrderBy(e => e.Id).ToList();
        if (sorted.Select(e => e.Id).Distinct().Count() != sorted.Count)
            throw new ArgumentException("IDs must be unique");
        var stored = sorted.Select(e => Stored(e.Content, e.Compress)).ToList();
        var small = Enumerable.Range(0, sorted.Count).Where(i => stored[i].Length <= 0xFFFF && sorted[i].Content.Length <= 0xFFFF).ToList();
        var large = Enumerable.Range(0, sorted.Count).Except(small).ToList();
        var itoc = UtfTestWriter.Write("CpkItocInfo", 1,
        [
            new("FilesL", UtfType.U32, UtfStorage.PerRow, [(uint)small.Count]),
            new("FilesH", UtfType.U32, UtfStorage.PerRow, [(uint)large.Count]),
            new("DataL", UtfType.Data, UtfStorage.PerRow, [ItocPart("CpkItocL", UtfType.U16, small, sorted, stored, o.UtfVersion)]),
            new("DataH", UtfType.Data, UtfStorage.PerRow, [ItocPart("CpkItocH", UtfType.U32, large, sorted, stored, o.UtfVersion)]),
        ], o.Masked, o.UtfVersion);
        long itocSize = 0x10 + itoc.Length;
        long contentOffset = Align(TablesStart + itocSize, o.Alignment);
        var positions = Positions(stored.Select(s => (long)s.Length).ToList(), contentOffset, o.Alignment, out long contentEnd);
        var header = Header(o, mode: 0, files: sorted.Count, contentOffset, contentEnd - contentOffset,
            toc: null, itoc: (TablesStart, SizeField(itocSize, o)), etoc: null,
            packedSize: stored.Sum(s => (long)s.Length), dataSize: sorted.Sum(e => (long)e.Content.Length), sorted: true);
        var output = new byte[contentEnd];
        WriteFront(output, Packet("CPK ", header, o.Masked), Packet("ITOC", itoc, o.Masked));
        for (int i = 0; i < stored.Count; i++)
            stored[i].CopyTo(output, positions[i]);
        return output;
    }

    // FileSize < ExtractSize is how readers tell a compressed entry: a stream no smaller than the content is not stored.
    private static byte[] Stored(byte[] content, bool compress)
    {
        if (!compress || content.Length < CrilaylaTestEncoder.PrefixSize)
            return content;
        var compressed = CrilaylaTestEncoder.Encode(content);
        return compressed.Length < content.Length ? compressed : content;
    }

    // A table packet's size as the header states it: the packet alone, or up to the next boundary with PaddedSizes.
    private static long SizeField(long packetSize, Options o) => o.PaddedSizes ? Align(packetSize, o.Alignment) : packetSize;

    // Each entry on the next alignment boundary; the content ends at the boundary after the last (zeros between).
    private static long[] Positions(IReadOnlyList<long> stored, long contentOffset, int alignment, out long contentEnd)
    {
        var positions = new long[stored.Count];
        long cursor = contentOffset;
        for (int i = 0; i < stored.Count; i++)
        {
            positions[i] = Align(cursor, alignment);
            cursor = positions[i] + stored[i];
        }
        contentEnd = Align(cursor, alignment);
        return positions;
    }

    private static byte[] ItocPart(string name, UtfType sizeType, List<int> indexes, List<IdEntry> entries, List<byte[]> stored, ushort version) =>
        UtfTestWriter.Write(name, indexes.Count,
        [
            new("ID", UtfType.U16, UtfStorage.PerRow, indexes.Select(i => (object?)entries[i].Id).ToList()),
            new("FileSize", sizeType, UtfStorage.PerRow, indexes.Select(i => (object?)stored[i].Length).ToList()),
            new("ExtractSize", sizeType, UtfStorage.PerRow, indexes.Select(i => (object?)entries[i].Content.Length).ToList()),
        ], version: version);

    private static byte[] Etoc(IReadOnlyList<NamedEntry> entries, Options o) =>
        UtfTestWriter.Write("CpkEtocInfo", entries.Count,
        [
            new("UpdateDateTime", UtfType.U64, UtfStorage.PerRow, entries.Select(_ => (object?)o.UpdateDateTime).ToList()),
            new("LocalDir", UtfType.String, UtfStorage.PerRow, entries.Select(e => (object?)e.DirName).ToList()),
        ], o.Masked, o.UtfVersion);

    // The header row as CRI's packer writes it: one row, values per row, columns it does not use store no value.
    private static byte[] Header(Options o, int mode, int files, long contentOffset, long contentSize,
        (long Offset, long Size)? toc, (long Offset, long Size)? itoc, (long Offset, long Size)? etoc,
        long packedSize, long dataSize, bool sorted)
    {
        UtfColumn Row(string name, UtfType type, object? value) => new(name, type, UtfStorage.PerRow, [value]);
        UtfColumn Optional(string name, long? value) =>
            value is null ? UtfColumn.Zero(name, UtfType.U64) : Row(name, UtfType.U64, (ulong)value.Value);
        return UtfTestWriter.Write("CpkHeader", 1,
        [
            Row("UpdateDateTime", UtfType.U64, o.UpdateDateTime),
            UtfColumn.Zero("FileSize", UtfType.U64),
            Row("ContentOffset", UtfType.U64, (ulong)contentOffset),
            Row("ContentSize", UtfType.U64, (ulong)contentSize),
            Optional("TocOffset", toc?.Offset),
            Optional("TocSize", toc?.Size),
            UtfColumn.Zero("TocCrc", UtfType.U32),
            UtfColumn.Zero("HtocOffset", UtfType.U64),
            UtfColumn.Zero("HtocSize", UtfType.U64),
            Optional("EtocOffset", etoc?.Offset),
            Optional("EtocSize", etoc?.Size),
            Optional("ItocOffset", itoc?.Offset),
            Optional("ItocSize", itoc?.Size),
            UtfColumn.Zero("ItocCrc", UtfType.U32),
            UtfColumn.Zero("GtocOffset", UtfType.U64),
            UtfColumn.Zero("GtocSize", UtfType.U64),
            UtfColumn.Zero("GtocCrc", UtfType.U32),
            UtfColumn.Zero("HgtocOffset", UtfType.U64),
            UtfColumn.Zero("HgtocSize", UtfType.U64),
            Row("EnabledPackedSize", UtfType.U64, (ulong)packedSize),
            Row("EnabledDataSize", UtfType.U64, (ulong)dataSize),
            o.TotalDataSize is { } totalData ? Row("TotalDataSize", UtfType.U64, totalData) : UtfColumn.Zero("TotalDataSize", UtfType.U64),
            UtfColumn.Zero("Tocs", UtfType.U32),
            Row("Files", UtfType.U32, (uint)files),
            Row("Groups", UtfType.U32, 0u),
            Row("Attrs", UtfType.U32, 0u),
            o.TotalFiles is { } totalFiles ? Row("TotalFiles", UtfType.U32, totalFiles) : UtfColumn.Zero("TotalFiles", UtfType.U32),
            UtfColumn.Zero("Directories", UtfType.U32),
            UtfColumn.Zero("Updates", UtfType.U32),
            Row("Version", UtfType.U16, (ushort)7),
            Row("Revision", UtfType.U16, (ushort)14),
            Row("Align", UtfType.U16, checked((ushort)o.Alignment)),
            Row("Sorted", UtfType.U16, (ushort)(sorted ? 1 : 0)),
            Row("EnableFileName", UtfType.U16, (ushort)(mode == 0 ? 0 : 1)),
            UtfColumn.Zero("EID", UtfType.U16),
            Row("CpkMode", UtfType.U32, (uint)mode),
            Row("Tvers", UtfType.String, o.Tvers),
            UtfColumn.Zero("Comment", UtfType.String),
            Row("Codec", UtfType.U32, 0u),
            Row("DpkItoc", UtfType.U32, 0u),
            UtfColumn.Zero("EnableTocCrc", UtfType.U16),
            UtfColumn.Zero("EnableFileCrc", UtfType.U16),
            UtfColumn.Zero("CrcMode", UtfType.U32),
            UtfColumn.Zero("CrcTable", UtfType.Data),
        ], o.Masked, o.UtfVersion);
    }

    // The header packet at 0, "(c)CRI" just before 0x800, the first table packet at 0x800.
    private static void WriteFront(byte[] output, byte[] header, byte[] firstPacket)
    {
        if (header.Length > TablesStart - 6)
            throw new InvalidOperationException("the CPK header table does not fit before 0x7FA");
        header.CopyTo(output, 0);
        "(c)CRI"u8.CopyTo(output.AsSpan(TablesStart - 6));
        firstPacket.CopyTo(output, TablesStart);
    }

    // A table packet: magic, a flag CRI's packer sets to 0xFF for plain tables and 0 for masked ones, the table size.
    private static byte[] Packet(string magic, byte[] table, bool masked)
    {
        var packet = new byte[0x10 + table.Length];
        System.Text.Encoding.ASCII.GetBytes(magic).CopyTo(packet, 0);
        BinaryPrimitives.WriteUInt32LittleEndian(packet.AsSpan(4), masked ? 0u : 0xFFu);
        BinaryPrimitives.WriteUInt64LittleEndian(packet.AsSpan(8), (ulong)table.Length);
        table.CopyTo(packet, 0x10);
        return packet;
    }

    private static bool IsSorted(IReadOnlyList<NamedEntry> entries) =>
        entries.Zip(entries.Skip(1)).All(p =>
            string.CompareOrdinal(p.First.DirName + "/" + p.First.FileName, p.Second.DirName + "/" + p.Second.FileName) < 0);

    private static long Align(long value, long alignment) => (value + alignment - 1) / alignment * alignment;
}
