using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Awb;

/// <summary>The validated index of an AWB (AFS2) archive: entries, ids, positions and the header fields a rebuild keeps.</summary>
internal sealed class AwbIndex : ArchiveIndex
{
    internal AwbIndex(ArchiveSource source, IReadOnlyList<ArchiveEntry> entries, AwbHeader header, uint[] ids, long[] positions)
        : base(source, entries)
    {
        Header = header;
        Ids = ids;
        Positions = positions;
    }

    public override IArchiveFormat Format => AwbFormat.Instance;

    /// <summary>The fixed 16-byte header's fields (version, widths, alignment, subkey).</summary>
    public AwbHeader Header { get; }

    /// <summary>The cue id of every entry, in table order.</summary>
    public IReadOnlyList<uint> Ids { get; }

    /// <summary>The n+1 stored positions: entry i runs from roundup(pos[i], alignment) to pos[i+1].</summary>
    internal long[] Positions { get; }
}
