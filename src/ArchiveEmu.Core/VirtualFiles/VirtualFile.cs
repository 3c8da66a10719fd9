namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// A read-only file made of segments (slices of files, bytes in memory, zeros). Reads are
/// positional (pread semantics), return every byte up to EOF, and are safe from many threads.
/// Disposing it lets go of the file handles it holds.
/// </summary>
public sealed class VirtualFile : IDisposable, IStreamingReader
{
    private readonly Segment[] _segments;
    private readonly SegmentLookup _lookup;
    private readonly PooledFile[] _files;
    private readonly IDisposable? _owned;
    private int _disposed;
    private int _hintedThrough = -1; // the last segment a read-ahead hint covered (written only when hinting)
    private int _coldPass; // 1 while the current streaming pass finds its sources not cached (written only when it changes)
    private long _streamedTo; // where the last streaming read of a cold pass ended (written only in cold passes)

    internal VirtualFile(Segment[] segments, PooledFile[] files, long length, IDisposable? owned = null)
    {
        _segments = segments;
        _files = files;
        _owned = owned;
        Length = length;
        _lookup = new SegmentLookup(segments);
    }

    /// <summary>The size of the virtual file in bytes.</summary>
    public long Length { get; }

    /// <summary>The segments in order: no gaps, no overlaps, covering [0, Length).</summary>
    public ReadOnlySpan<Segment> Segments => _segments;

    /// <summary>Distinct files on disk this virtual file reads from.</summary>
    public IEnumerable<FileSource> Files => _segments.Select(s => s.Source).OfType<FileSource>().Distinct();

    /// <summary>
    /// Reads up to <c>destination.Length</c> bytes at <paramref name="offset"/>; returns fewer only at EOF
    /// (0 at or past it). A file that no longer holds the bytes it held at build time is an <see cref="IOException"/>.
    /// </summary>
    public int Read(long offset, Span<byte> destination)
    {
        if (offset < 0)
            ThrowHelper.ThrowNegativeOffset(offset);
        if (_disposed != 0)
            ThrowHelper.ThrowDisposed(nameof(VirtualFile));
        if (offset >= Length || destination.IsEmpty)
            return 0;

        int total = (int)Math.Min(destination.Length, Length - offset);
        bool fromTheStart = offset == 0, streaming = total >= MinStreamingRead, missed = false;
        var rest = destination[..total];
        int i = _lookup.Find(offset), first = i;
        int count;
        long segmentEnd;
        while (true)
        {
            ref readonly var segment = ref _segments[i];
            long within = offset - segment.VirtualOffset;
            count = (int)Math.Min(segment.Length - within, rest.Length);
            if (streaming && segment.Source is FileSource file && file.IsMissing(segment.SourceOffset + within, count))
            {
                missed = true;
                int current = i;
                file.BringInForReader(segment.SourceOffset + within, count, segment.SourceOffset + segment.Length,
                    (spanStart, spanEnd) => NeighboursWithin(current, file, spanStart, spanEnd));
                BringInNextSliceOf(file, i);
            }
            segment.Source.ReadExactly(segment.SourceOffset + within, rest[..count]);
            segmentEnd = segment.VirtualOffset + segment.Length;
            rest = rest[count..];
            if (rest.IsEmpty)
                break;
            offset += count;
            i++;
        }
        _lookup.Remember(i);
        // A big read that ran to (or past) the end of a segment is a reader going through the file (a game loading the archive,
        // cp, the kernel's FUSE read-ahead): while its pass finds the sources cold, keep the next slices requested ahead of
        // it. A warm pass asks for nothing (that would cost a check per slice). Small random reads never hint.
        // Nothing is written per warm read, so concurrent readers share the cache line.
        if (streaming && (missed || fromTheStart) && (missed ? 1 : 0) != _coldPass)
            Volatile.Write(ref _coldPass, missed ? 1 : 0); // a new pass starts warm or cold; any miss makes it cold
        // A miss asks at once, not only at the segment's end: the kernel's own read-ahead, set off by the folios just
        // brought in, would otherwise fill what follows in small pages before the background thread gets there.
        bool cold = streaming && Volatile.Read(ref _coldPass) != 0;
        if (cold)
            Volatile.Write(ref _streamedTo, offset + count);
        if (streaming && (missed || i > first || offset + count == segmentEnd) && (cold || !PageCacheReads.CanTell))
        {
            int hinted = fromTheStart ? -1 : Volatile.Read(ref _hintedThrough); // a new pass: earlier hints may be long gone
            int next = hinted >= i && hinted <= i + 2 * ReadAheadSegments ? hinted + 1 : i + 1; // else: a hint of another pass
            if (next <= i + ReadAheadSegments / 4 && next < _segments.Length) // refill once a quarter is left
                HintNextSegments(next);
        }
        return total;
    }

    // Reading the folios just brought in sets off the kernel's own read-ahead, which fills the next uncached pages of the
    // same file (up to its read-ahead size) in small folios. When the next slice is of the same file and close, it is
    // brought in first, before that can happen; later slices are the background thread's, which is then ahead.
    private void BringInNextSliceOf(FileSource file, int current)
    {
        int next = current + 1;
        while (next < _segments.Length && _segments[next].Source is not FileSource)
            next++;
        if (next == _segments.Length || _segments[next].Source != file)
            return;
        ref readonly var segment = ref _segments[next];
        long after = _segments[current].SourceOffset + _segments[current].Length;
        if (segment.SourceOffset < after || segment.SourceOffset - after > ReadAheadBytes)
            return;
        try
        {
            long length = Math.Min(segment.Length, ReadAheadBytes / 4);
            var (spanStart, spanEnd) = PageCacheReads.Span(segment.SourceOffset, length, file.Identity.Length);
            file.BringInAhead(segment.SourceOffset, length, NeighboursWithin(next, file, spanStart, spanEnd));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a hint: the read of that slice, if it comes, reports what is wrong
        }
    }

    long IStreamingReader.StreamedTo => Volatile.Read(ref _streamedTo);

    // Bytes of [spanStart, spanEnd) of the file that nearby segments (other than segment `index`) read too: an original
    // read around small injected entries needs most of the folios a small slice of it falls in.
    private long NeighboursWithin(int index, FileSource file, long spanStart, long spanEnd)
    {
        const int Nearby = 16;
        long needed = 0;
        for (int j = Math.Max(0, index - Nearby); j < _segments.Length && j <= index + Nearby; j++)
        {
            ref readonly var segment = ref _segments[j];
            if (j == index || segment.Source != file)
                continue;
            long from = Math.Max(spanStart, segment.SourceOffset), to = Math.Min(spanEnd, segment.SourceOffset + segment.Length);
            if (to > from)
                needed += to - from;
        }
        return needed;
    }

    /// <summary>The last segment a read-ahead hint has asked for (-1: none yet); for tests.</summary>
    internal int HintedThrough => Volatile.Read(ref _hintedThrough);

    // Ask for the next few file slices (up to ReadAheadBytes). Threads racing here may ask for a range twice; what is
    // cached or in flight is skipped. Measured with `archiveemu bench --cold` (docs/BENCHMARKS.md).
    private const int MinStreamingRead = 64 * 1024;
    private const long ReadAheadBytes = 16L << 20;
    private const int ReadAheadSegments = 32;

    private void HintNextSegments(int first)
    {
        long bytes = 0;
        int j = first;
        for (; j < _segments.Length && j < first + ReadAheadSegments && bytes < ReadAheadBytes; j++)
        {
            ref readonly var segment = ref _segments[j];
            long length = Math.Min(segment.Length, ReadAheadBytes - bytes);
            if (segment.Source is FileSource file)
            {
                var (spanStart, spanEnd) = PageCacheReads.Span(segment.SourceOffset, length, file.Identity.Length);
                file.PrefetchSoon(segment.SourceOffset, length, NeighboursWithin(j, file, spanStart, spanEnd), this, segment.VirtualOffset + length);
            }
            bytes += length;
        }
        Volatile.Write(ref _hintedThrough, j - 1);
    }

    /// <summary>Reads exactly <c>destination.Length</c> bytes or throws <see cref="EndOfStreamException"/>.</summary>
    public void ReadExactly(long offset, Span<byte> destination)
    {
        if (Read(offset, destination) != destination.Length)
            throw new EndOfStreamException($"Read of {destination.Length} bytes at {offset} passes the end of a {Length}-byte virtual file.");
    }

    /// <summary>A read-only seekable stream over this file; the stream does not own it unless asked.</summary>
    public VirtualFileStream OpenStream(bool ownsFile = false) => new(this, ownsFile);

    /// <summary>Index of the segment holding <paramref name="offset"/> (which is in [0, Length)).</summary>
    internal int FindSegment(long offset) => _lookup.Find(offset);

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        foreach (var file in _files)
            file.Pool.Release(file);
        _owned?.Dispose();
    }

    /// <summary>A virtual file of one source that owns a resource (a merged-cache pack handle), disposed with it.</summary>
    internal static VirtualFile OverSource(SegmentSource source, long length, IDisposable owned) =>
        new(length == 0 ? [] : [new Segment(0, length, source, 0)], [], length, owned);
}
