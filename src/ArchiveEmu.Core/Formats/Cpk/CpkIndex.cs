namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>A table of a CPK that ArchiveEmu copies as found (GTOC, HTOC, HGTOC): its header columns and where it is.</summary>
internal sealed record CpkRawTable(string OffsetColumn, string SizeColumn, long Offset, long Length);

/// <summary>
/// The validated index of a CRI CPK: the header table (every column kept), the TOC (named CPKs) or the ITOC's
/// DataL/DataH tables (ID-only CPKs), the ETOC, tables kept as found, and per entry its ExtractSize and ID.
/// Named CPKs: entry i is TOC row i, named "DirName/FileName". ID-only CPKs: entries sorted by ID, no names;
/// <see cref="ArchiveEntry.Index"/> is the position and <see cref="Ids"/> the ID, which is what a patch's
/// <c>EntryKey.ByIndex</c> means for them.
/// </summary>
internal sealed class CpkIndex : ArchiveIndex
{
    internal CpkIndex(ArchiveSource source, IReadOnlyList<ArchiveEntry> entries, CpkPacket header, CpkLayout layout, long[] extractSizes, long[] ids)
        : base(source, entries)
    {
        Header = header;
        Layout = layout;
        ExtractSizes = extractSizes;
        Ids = _ids = ids;
    }

    private readonly long[] _ids;

    public override IArchiveFormat Format => CpkFormat.Instance;

    /// <summary>The "CPK " packet and its CpkHeader table (one row).</summary>
    public CpkPacket Header { get; }

    /// <summary>Where the tables and the content are.</summary>
    public CpkLayout Layout { get; }

    /// <summary>True for a CPK with an ITOC and no TOC: entries have IDs and no names.</summary>
    public bool IsIdOnly => Layout.Toc is null;

    /// <summary>Each entry's ExtractSize: above its Size when it is stored CRILAYLA-compressed.</summary>
    public IReadOnlyList<long> ExtractSizes { get; }

    /// <summary>Each entry's ID (the TOC's ID column, the ITOC's ID).</summary>
    public IReadOnlyList<long> Ids { get; }

    /// <summary>True when the CPK has a GTOC (groups); it is kept as found.</summary>
    public bool HasGtoc => Layout.Raw.Any(r => r.OffsetColumn == "GtocOffset");

    /// <summary>An ID-only CPK's index names are IDs (the entries are in ID order); a named CPK's are positions.</summary>
    internal override ArchiveEntry? EntryAtIndexKey(int key)
    {
        if (!IsIdOnly)
            return base.EntryAtIndexKey(key);
        int at = Array.BinarySearch(_ids, (long)key);
        return at >= 0 ? Entries[at] : null;
    }

    /// <summary>An entry stored CRILAYLA-compressed (FileSize &lt; ExtractSize): an archive inside it is decoded once (Routing/DecodedEntries).</summary>
    internal override StoredEncoding? StoredCodec(ArchiveEntry entry) =>
        ExtractSizes[entry.Index] > entry.Size ? new StoredEncoding(Crilayla.Instance, ExtractSizes[entry.Index]) : null;
}

/// <summary>The tables and content of a CPK.</summary>
/// <param name="Alignment">The header's Align (1 when 0): entries and the content start on multiples of it.</param>
/// <param name="ContentOffset">The header's ContentOffset.</param>
/// <param name="FileOffsetBase">What TOC FileOffsets count from: the smaller of ContentOffset and TocOffset (CriPakTools ReadTOC).</param>
/// <param name="Toc">The "TOC " packet, for named CPKs.</param>
/// <param name="Itoc">The "ITOC" packet, when present.</param>
/// <param name="ItocL">The ITOC's DataL table (IDs with 16-bit sizes), for ID-only CPKs.</param>
/// <param name="ItocH">The ITOC's DataH table (IDs with 32-bit sizes), for ID-only CPKs.</param>
/// <param name="Etoc">The "ETOC" packet (per-entry dates and local folders), when present.</param>
/// <param name="Raw">Tables copied as found.</param>
internal sealed record CpkLayout(
    long Alignment, long ContentOffset, long FileOffsetBase, CpkPacket? Toc, CpkPacket? Itoc, UtfTable? ItocL, UtfTable? ItocH,
    CpkPacket? Etoc, IReadOnlyList<CpkRawTable> Raw)
{
    /// <summary>Rounds <paramref name="value"/> up to the alignment.</summary>
    public long Align(long value) => Alignment <= 1 ? value : (value + Alignment - 1) / Alignment * Alignment;
}
