namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>A run of a virtual file: <see cref="Length"/> bytes at <see cref="VirtualOffset"/> come from <see cref="Source"/> at <see cref="SourceOffset"/>.</summary>
internal readonly record struct Segment(long VirtualOffset, long Length, SegmentSource Source, long SourceOffset)
{
    public long VirtualEnd => VirtualOffset + Length;
}
