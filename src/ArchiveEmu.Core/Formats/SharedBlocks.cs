namespace ArchiveEmu.Core.Formats;

/// <summary>
/// Where an unchanged entry goes once the entries before it have changed size. Copy-on-write clones (btrfs, XFS) share
/// an original's extents only in whole 4 KiB blocks at the same place within a block, so an entry that moves by a
/// multiple of 4 KiB can be shared with the original while one that moves by AFS's 0x800 cannot (issue 34: 46 % of a
/// 1 GiB AFS and 0 % of a P5R EN.CPK shared when moves were packed tight, docs/BENCHMARKS.md "clonecost"). Rounding
/// each move up to 4 KiB costs at most 4 KiB less one alignment step per change; the format's own alignment still holds.
/// </summary>
internal static class SharedBlocks
{
    /// <summary>The block a file system shares extents in and the page cache works in.</summary>
    public const long Size = 4096;

    /// <summary>
    /// The first offset at or after <paramref name="position"/> that is a multiple of <paramref name="alignment"/> and
    /// lies at the same place within a 4 KiB block as <paramref name="originalOffset"/>. When no such offset keeps the
    /// alignment (an alignment that does not divide 4 KiB, or an original entry off its own alignment), just the
    /// aligned position.
    /// </summary>
    public static long Keep(long position, long originalOffset, long alignment)
    {
        alignment = Math.Max(1, alignment);
        long aligned = (position + alignment - 1) / alignment * alignment;
        if (Size % alignment != 0 || originalOffset % alignment != 0)
            return aligned;
        return aligned + ((originalOffset - aligned) % Size + Size) % Size;
    }
}
