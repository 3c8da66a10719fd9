using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Tar;

/// <summary>One member of a tar archive: its extension records (pax, GNU long name), header and data.</summary>
/// <param name="RecordStart">Where the member's first block is (its first extension header, or its header).</param>
/// <param name="HeaderOffset">Where its own ustar header is.</param>
/// <param name="DataOffset">Where its data is.</param>
/// <param name="RecordEnd">The end of its data, rounded up to 512.</param>
/// <param name="Pax">Its pax records, if it had an 'x' header.</param>
internal sealed record TarMember(string Name, byte TypeFlag, long RecordStart, long HeaderOffset, long DataOffset, long Size, long RecordEnd,
    List<KeyValuePair<string, string>>? Pax, bool HasGnuLongName)
{
    public bool IsRegularFile => TypeFlag is (byte)'0' or 0 or (byte)'7';
}

/// <summary>The validated index of a tar archive.</summary>
internal sealed class TarIndex : ArchiveIndex
{
    internal TarIndex(ArchiveSource source, IReadOnlyList<TarMember> members, long endOffset)
        : base(source, members.Select((m, i) => new ArchiveEntry(i, m.Name, m.DataOffset, m.Size)).ToArray())
    {
        Members = members;
        EndOffset = endOffset;
    }

    public override IArchiveFormat Format => TarFormat.Instance;

    internal IReadOnlyList<TarMember> Members { get; }

    /// <summary>Where the end-of-archive zero blocks (or the end of the file) begin.</summary>
    public long EndOffset { get; }
}
