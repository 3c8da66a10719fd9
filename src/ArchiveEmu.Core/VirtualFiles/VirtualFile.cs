namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// A read-only file made of segments (slices of files, bytes in memory, zeros). Reads are
/// positional (pread semantics), return every byte up to EOF, and are safe from many threads.
/// Disposing it lets go of the file handles it holds. Bringing its sources into the page cache for readers that
/// stream through it is <see cref="StreamingBringIn"/>'s job, told of every read.
/// </summary>
public sealed class VirtualFile : IDisposable
{
    private readonly Segment[] _segments;
    private readonly SegmentLookup _lookup;
    private readonly PooledFile[] _files;
    private readonly IDisposable? _owned;
    private readonly StreamingBringIn _bringIn;
    private readonly PageCacheStreaming _streaming;
    private readonly ReadRun _sharedRun = new(); // the run of readers that name none of their own
    private int _disposed;

    internal VirtualFile(Segment[] segments, PooledFile[] files, long length, PageCacheStreaming streaming, IDisposable? owned = null)
    {
        _segments = segments;
        _files = files;
        _owned = owned;
        Length = length;
        _lookup = new SegmentLookup(segments);
        _streaming = streaming;
        _bringIn = new StreamingBringIn(segments, streaming);
    }

    /// <summary>The size of the virtual file in bytes.</summary>
    public long Length { get; }

    /// <summary>The segments in order: no gaps, no overlaps, covering [0, Length).</summary>
    internal ReadOnlySpan<Segment> Segments => _segments;

    /// <summary>Distinct files on disk this virtual file reads from.</summary>
    internal IEnumerable<FileSource> Files => _segments.Select(s => s.Source).OfType<FileSource>().Distinct();

    /// <summary>
    /// Reads up to <c>destination.Length</c> bytes at <paramref name="offset"/>; returns fewer only at EOF
    /// (0 at or past it). A file that no longer holds the bytes it held at build time is an <see cref="IOException"/>.
    /// Readers that call this share one <see cref="ReadRun"/>: one reader going through the file is seen as a stream, several
    /// at once mostly are not (a <see cref="VirtualFileStream"/> has its own).
    /// </summary>
    public int Read(long offset, Span<byte> destination) => Read(offset, destination, _sharedRun);

    /// <summary>A read by the reader whose run is <paramref name="reader"/> (one per open file in the host).</summary>
    internal int Read(long offset, Span<byte> destination, ReadRun reader) => Read(offset, destination, reader, check: null);

    /// <summary>
    /// A read whose bytes are handed out only once <paramref name="check"/> has passed the segments they came from, the
    /// range this read found (0 bytes read: no call); a check that throws fails the read.
    /// </summary>
    internal int ReadChecked(long offset, Span<byte> destination, ReadRun reader, IReadCheck check) => Read(offset, destination, reader, check);

    private int Read(long offset, Span<byte> destination, ReadRun reader, IReadCheck? check)
    {
        if (offset < 0)
            ThrowHelper.ThrowNegativeOffset(offset);
        if (_disposed != 0)
            ThrowHelper.ThrowDisposed(nameof(VirtualFile));
        if (offset >= Length || destination.IsEmpty)
            return 0;

        int total = (int)Math.Min(destination.Length, Length - offset);
        int i = _lookup.Find(offset);
        ref readonly var first = ref _segments[i];
        long firstWithin = offset - first.VirtualOffset;
        bool oneSegment = total <= first.Length - firstWithin;
        if (oneSegment && !PageCacheStreaming.IsStreaming(total))
        {
            // Most reads: one segment, too small for the page-cache policy to look at (see ReadAcross).
            first.Source.ReadExactly(first.SourceOffset + firstWithin, destination[..total]);
            _lookup.Remember(i);
            check?.AfterRead(i, i);
            return total;
        }
        long run = reader.Record(offset, total);
        if (oneSegment && !_streaming.IsStream(run))
        {
            // A big read of a reader that does not stream (a game loading one entry): what it asks for, and when it follows
            // the reader's last read, a hint for the next bytes, no more than the run so far.
            first.Source.ReadExactly(first.SourceOffset + firstWithin, destination[..total]);
            _lookup.Remember(i);
            if (_streaming.AsksAheadOf(run))
                _bringIn.AskAheadOfShortRun(reader, i, offset + total, PageCacheStreaming.Within(_streaming.ShortRunAheadBytes, run));
            check?.AfterRead(i, i);
            return total;
        }
        return ReadAcross(offset, destination[..total], i, run, check);
    }

    /// <summary>A read that crosses segments or streams: each piece is told to the bring-in before it is read.</summary>
    private int ReadAcross(long offset, Span<byte> rest, int i, long run, IReadCheck? check)
    {
        int total = rest.Length, first = i;
        long end = offset + total;
        var pass = _bringIn.Begin(offset, run, i);
        while (true)
        {
            ref readonly var segment = ref _segments[i];
            long within = offset - segment.VirtualOffset;
            int count = (int)Math.Min(segment.Length - within, rest.Length);
            _bringIn.BeforeRead(ref pass, i, within, count);
            segment.Source.ReadExactly(segment.SourceOffset + within, rest[..count]);
            rest = rest[count..];
            if (rest.IsEmpty)
                break;
            offset += count;
            i++;
        }
        _lookup.Remember(i);
        _bringIn.AfterRead(in pass, i, end);
        check?.AfterRead(first, i);
        return total;
    }

    /// <summary>The last segment a read-ahead hint has asked for (-1: none yet); for tests.</summary>
    internal int HintedThrough => _bringIn.HintedThrough;

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
        new(length == 0 ? [] : [new Segment(0, length, source, 0)], [], length, PageCacheStreaming.ForVirtualFiles, owned);
}
