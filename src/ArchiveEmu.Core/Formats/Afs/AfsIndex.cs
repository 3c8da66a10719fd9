using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Afs;

/// <summary>Where an AFS file keeps the pointer to its name (attribute) table.</summary>
internal enum AfsNameTablePlacement
{
    /// <summary>No name table.</summary>
    None,

    /// <summary>Right after the entry table, at 8 + 8n (most files).</summary>
    AfterEntryTable,

    /// <summary>In the last 8 bytes before the first entry's data (older Dreamcast files).</summary>
    BeforeFirstData,
}

/// <summary>The validated index of an AFS archive: entries, and the name table records when it has one.</summary>
internal sealed class AfsIndex : ArchiveIndex
{
    internal AfsIndex(ArchiveSource source, IReadOnlyList<ArchiveEntry> entries,
        long firstDataOffset, AfsNameTablePlacement placement, byte[]? nameRecords)
        : base(source, entries)
    {
        FirstDataOffset = firstDataOffset;
        Placement = placement;
        NameRecords = nameRecords;
    }

    public override IArchiveFormat Format => AfsFormat.Instance;

    /// <summary>Where the first entry's data starts (the header's size).</summary>
    public long FirstDataOffset { get; }

    public AfsNameTablePlacement Placement { get; }

    /// <summary>48 bytes per entry (name[32], six u16 date fields, u32 size), or null without a name table.</summary>
    internal byte[]? NameRecords { get; }
}
