using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// An opened read path: positional reads, plus <see cref="Trace"/>, which appends the filesystem requests a
/// read issues — derived from the segment map or chunk table, so the measured reads run untouched.
/// </summary>
internal abstract class BenchFile : IDisposable
{
    public abstract long Length { get; }

    public abstract int Read(long offset, Span<byte> destination);

    /// <summary>Appends the requests <c>Read(offset, length)</c> sends to the filesystem (call it in the same order as the reads).</summary>
    public abstract void Trace(long offset, int length, ReadTrace trace);

    /// <summary>Files opened for reading since this path was opened (the handles its reads needed).</summary>
    public abstract long Opens { get; }

    public abstract void Dispose();
}

/// <summary>The baseline: the same bytes from one plain file, read with <see cref="RandomAccess"/>.</summary>
internal sealed class SolidBenchFile(string path) : BenchFile
{
    private readonly SafeFileHandle _handle = File.OpenHandle(path);

    public override long Length { get; } = new FileInfo(path).Length;

    public override int Read(long offset, Span<byte> destination)
    {
        if (offset >= Length)
            return 0;
        destination = destination[..(int)Math.Min(destination.Length, Length - offset)]; // a reader that knows the size asks no more
        int total = 0;
        while (total < destination.Length)
        {
            int n = RandomAccess.Read(_handle, destination[total..], offset + total);
            if (n == 0)
                break;
            total += n;
        }
        return total;
    }

    public override void Trace(long offset, int length, ReadTrace trace) =>
        trace.Add(path, offset, (int)Math.Min(length, Length - offset));

    public override long Opens => 1;

    public override void Dispose() => _handle.Dispose();
}

/// <summary>A virtual file: emulation (segments over the original and loose files) or a merged cache entry.</summary>
internal sealed class VirtualBenchFile : BenchFile
{
    private readonly VirtualFile _file;
    private readonly FileHandlePool? _pool;
    private readonly long _opensBefore;
    private readonly MergedReadModel? _merged;

    /// <param name="pool">The emulated file's private handle pool (its opens are counted); null for a merged file.</param>
    /// <param name="merged">How the merged source reads its pack; null for an emulated file.</param>
    public VirtualBenchFile(VirtualFile file, FileHandlePool? pool, MergedReadModel? merged)
    {
        _file = file;
        _pool = pool;
        _opensBefore = pool?.OpenCount ?? 0;
        _merged = merged;
    }

    public override long Length => _file.Length;

    public override int Read(long offset, Span<byte> destination) => _file.Read(offset, destination);

    public override long Opens => _pool is null ? 1 : _pool.OpenCount - _opensBefore; // a merged file holds one pack handle

    public override void Trace(long offset, int length, ReadTrace trace)
    {
        if (_merged is not null)
        {
            _merged.Trace(offset, (int)Math.Min(length, Length - offset), trace);
            return;
        }
        long end = Math.Min(offset + length, Length);
        var segments = _file.Segments;
        for (int i = FindSegment(segments, offset); i < segments.Length && segments[i].VirtualOffset < end; i++)
        {
            var s = segments[i];
            if (s.Source is not FileSource source)
                continue; // header bytes in memory, padding: no request
            long from = Math.Max(offset, s.VirtualOffset), to = Math.Min(end, s.VirtualEnd);
            trace.Add(source.Path, s.SourceOffset + (from - s.VirtualOffset), (int)(to - from));
        }
    }

    private static int FindSegment(ReadOnlySpan<Segment> segments, long offset)
    {
        int lo = 0, hi = segments.Length - 1;
        while (lo < hi)
        {
            int mid = (lo + hi + 1) / 2;
            if (segments[mid].VirtualOffset <= offset)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }

    public override void Dispose() => _file.Dispose();
}
