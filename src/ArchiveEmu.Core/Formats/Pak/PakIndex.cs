using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>One record of a PAK archive: header, data, and (V1) the padding up to the next record.</summary>
/// <param name="RecordStart">Where the record's header starts.</param>
/// <param name="HeaderLength">Name field plus size (256, 36 or 28 bytes).</param>
/// <param name="DataOffset">Where its data starts (RecordStart + HeaderLength).</param>
/// <param name="RecordEnd">The end of its data rounded up to the variant's alignment, or EOF if that comes first.</param>
internal sealed record PakRecord(string Name, long RecordStart, int HeaderLength, long DataOffset, long Size, long RecordEnd);

/// <summary>The validated index of an Atlus PAK archive: its variant, records, and what follows the last record.</summary>
internal sealed class PakIndex : ArchiveIndex
{
    internal PakIndex(ArchiveSource source, PakVariant variant, IReadOnlyList<PakRecord> records,
        bool hasTerminator, long tailOffset)
        : base(source, records.Select((r, i) => new ArchiveEntry(i, r.Name, r.DataOffset, r.Size)).ToArray())
    {
        Variant = variant;
        Records = records;
        HasTerminator = hasTerminator;
        TailOffset = tailOffset;
    }

    public override IArchiveFormat Format => PakFormat.Instance;

    public PakVariant Variant { get; }

    internal IReadOnlyList<PakRecord> Records { get; }

    /// <summary>V1 only: the records end with an all-zero 256-byte record (rather than at EOF).</summary>
    public bool HasTerminator { get; }

    /// <summary>Where the records end: the V1 terminator, or bytes after the last record; kept verbatim by the builder.</summary>
    public long TailOffset { get; }

    /// <summary>Bytes from <see cref="TailOffset"/> to EOF (the terminator included).</summary>
    public long TailLength => Length - TailOffset;
}
