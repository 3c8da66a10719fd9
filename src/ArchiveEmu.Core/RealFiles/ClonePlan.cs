using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.RealFiles;

/// <summary>A range of an emulated file a copy-on-write clone takes from the original: whole 4 KiB blocks on both sides.</summary>
internal readonly record struct CloneRange(long Offset, long SourceOffset, long Length);

/// <summary>
/// Which of an emulated file's bytes a copy-on-write clone of its original can share. File systems share extents in
/// whole blocks (4 KiB on btrfs and XFS as made by default) at block-aligned offsets on both sides, so a slice of the
/// original gives its whole blocks when it lies at the same place within a block in both files
/// (<see cref="SharedBlocks"/> keeps unchanged entries so); everything else has to be written.
/// </summary>
internal static class ClonePlan
{
    public const long Block = SharedBlocks.Size;

    /// <summary>The ranges of <paramref name="file"/> shareable with <paramref name="original"/> (a path as the segments name it), in order, adjacent ones joined.</summary>
    public static List<CloneRange> Of(VirtualFile file, string original)
    {
        var ranges = new List<CloneRange>();
        var segments = file.Segments;
        for (int i = 0; i < segments.Length; i++)
        {
            ref readonly var s = ref segments[i];
            if (s.Source is not FileSource f || f.Path != original || (s.SourceOffset - s.VirtualOffset) % Block != 0)
                continue;
            long start = (s.VirtualOffset + Block - 1) / Block * Block, end = s.VirtualEnd / Block * Block;
            if (end <= start)
                continue;
            long source = s.SourceOffset + (start - s.VirtualOffset);
            if (ranges.Count > 0 && ranges[^1] is var last && last.Offset + last.Length == start && last.SourceOffset + last.Length == source)
                ranges[^1] = last with { Length = last.Length + (end - start) };
            else
                ranges.Add(new CloneRange(start, source, end - start));
        }
        return ranges;
    }
}
