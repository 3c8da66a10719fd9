using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// CRI CPK: a "CPK " packet holding the CpkHeader @UTF table, then table packets (TOC with DirName/FileName/FileSize/
/// ExtractSize/FileOffset/ID/UserString for named CPKs; ITOC with DataL/DataH for ID-only ones; ETOC; GTOC …) and the
/// content, every entry on a multiple of Align. An entry with FileSize below ExtractSize is stored CRILAYLA-compressed.
/// Named entries are addressed by "DirName/FileName"; ID-only ones by ID (<see cref="AddressingOf"/>; docs/FORMATS.md, "CRI CPK").
/// </summary>
internal sealed class CpkFormat : ArchiveFormat<CpkIndex>
{
    /// <summary>The most entries a CPK may claim (the file size usually limits it first).</summary>
    internal const int MaxEntries = 1 << 24;

    public static CpkFormat Instance { get; } = new();

    public override string Name => "cpk";
    public override string DisplayName => "CPK";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    // Mods for CRI FileSystem V2 Hook match inner paths ignoring case and hand CRI the CPK's own spelling (which CRI
    // looks up exactly): an entry replaced keeps the CPK's spelling, so both hold; docs/FORMATS.md, "Letter case of entry names".
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".cpk"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < CpkPacket.HeaderSize + 8 || !head.StartsWith("CPK "u8))
            return false;
        ulong size = BinaryPrimitives.ReadUInt64LittleEndian(head[8..]);
        var table = head[CpkPacket.HeaderSize..];
        return size >= UtfTableReader.HeaderSize && size <= (ulong)(length - CpkPacket.HeaderSize)
            && (table.StartsWith("@UTF"u8) || UtfMask.IsMaskedUtf(table));
    }

    /// <summary>An ID-only CPK (an ITOC and no TOC) is addressed by ID (<c>EntryKey.ByIndex(id)</c>): the header packet alone tells.</summary>
    public override EntryAddressing AddressingOf(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        return CpkIndexReader.IsIdOnly(reader) ? EntryAddressing.ByIndex : EntryAddressing.ByName;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        return CpkIndexReader.Read(reader);
    }

    protected override EmulatedArchive BuildArchive(CpkIndex original, ArchivePatch patch, VirtualFiles.FileHandlePool? pool) =>
        CpkBuilder.Build(original, patch, pool);
}
