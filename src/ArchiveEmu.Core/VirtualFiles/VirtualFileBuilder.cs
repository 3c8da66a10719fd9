namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Collects segments (in any order) and builds a <see cref="VirtualFile"/>: sorts them, rejects
/// gaps and overlaps, merges adjacent slices of one file, and flattens slices of other virtual files.
/// </summary>
internal sealed class VirtualFileBuilder
{
    private readonly FileHandlePool _pool;
    private readonly List<Pending> _pending;
    private readonly Dictionary<byte[], MemorySource> _arraySources = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// Creates a builder whose files are read through <paramref name="pool"/> (the shared pool if null).
    /// <paramref name="expectedSegments"/> sizes its list up front (a format builder knows roughly how many).
    /// </summary>
    public VirtualFileBuilder(FileHandlePool? pool = null, int expectedSegments = 0)
    {
        _pool = pool ?? FileHandlePool.Shared;
        _pending = new List<Pending>(Math.Max(0, expectedSegments));
    }

    /// <summary>The end of the last appended segment: where the next Append puts its bytes.</summary>
    public long Position { get; private set; }

    /// <summary>
    /// Puts <paramref name="length"/> bytes of the file at <paramref name="path"/>, from <paramref name="fileOffset"/>,
    /// at <paramref name="at"/>. Give <paramref name="identity"/> when the caller already knows the file's size and
    /// mtime: it saves a stat, and reads fail if the file no longer matches it.
    /// </summary>
    public VirtualFileBuilder AddFile(long at, string path, long fileOffset, long length, FileIdentity? identity = null) =>
        Add(at, length, new Pending(at, length, fileOffset, path, identity, null));

    /// <summary>
    /// Puts bytes held in memory at <paramref name="at"/>; the builder keeps a reference, not a copy.
    /// Slices of one array share one source (and merge when adjacent), as slices of one file do.
    /// </summary>
    public VirtualFileBuilder AddBytes(long at, ReadOnlyMemory<byte> bytes)
    {
        if (!System.Runtime.InteropServices.MemoryMarshal.TryGetArray(bytes, out var slice) || slice.Array is null)
            return Add(at, bytes.Length, new Pending(at, bytes.Length, 0, null, null, new MemorySource(bytes)));
        if (!_arraySources.TryGetValue(slice.Array, out var shared))
            _arraySources.Add(slice.Array, shared = new MemorySource(slice.Array));
        return Add(at, bytes.Length, new Pending(at, bytes.Length, slice.Offset, null, null, shared));
    }

    /// <summary>Puts <paramref name="length"/> zero bytes at <paramref name="at"/>.</summary>
    public VirtualFileBuilder AddZeros(long at, long length) =>
        Add(at, length, new Pending(at, length, 0, null, null, ZeroSource.Instance));

    /// <summary>Puts bytes [offset, offset+length) of another virtual file at <paramref name="at"/>, copying its segments (not its bytes).</summary>
    public VirtualFileBuilder AddSlice(long at, VirtualFile source, long offset, long length)
    {
        ArgumentNullException.ThrowIfNull(source);
        CheckRange(at, length);
        if (offset < 0 || offset > source.Length - length)
            throw new ArgumentOutOfRangeException(nameof(offset),
                $"Slice [{offset}, {offset + length}) is outside the {source.Length}-byte source.");
        if (length == 0)
            return this;

        var segments = source.Segments;
        long end = offset + length;
        for (int i = source.FindSegment(offset); i < segments.Length && segments[i].VirtualOffset < end; i++)
        {
            var s = segments[i];
            long from = Math.Max(s.VirtualOffset, offset), to = Math.Min(s.VirtualEnd, end);
            long sourceOffset = s.SourceOffset + (from - s.VirtualOffset);
            long target = at + (from - offset);
            _pending.Add(s.Source is FileSource file
                ? new Pending(target, to - from, sourceOffset, file.Path, file.Identity, null)
                : new Pending(target, to - from, sourceOffset, null, null, s.Source));
        }
        Position = Math.Max(Position, at + length);
        return this;
    }

    public VirtualFileBuilder AppendFile(string path, long fileOffset, long length, FileIdentity? identity = null) =>
        AddFile(Position, path, fileOffset, length, identity);
    public VirtualFileBuilder AppendBytes(ReadOnlyMemory<byte> bytes) => AddBytes(Position, bytes);
    public VirtualFileBuilder AppendZeros(long length) => AddZeros(Position, length);
    public VirtualFileBuilder AppendSlice(VirtualFile source, long offset, long length) => AddSlice(Position, source, offset, length);

    /// <summary>Pads with zeros up to the next multiple of <paramref name="alignment"/>.</summary>
    public VirtualFileBuilder AppendPadding(long alignment)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(alignment, 1);
        long rem = Position % alignment;
        return rem == 0 ? this : AppendZeros(alignment - rem);
    }

    /// <summary>
    /// Builds the virtual file. Its length is <paramref name="length"/> if given (a shortfall is a gap),
    /// else the end of the last segment. Throws <see cref="InvalidDataException"/> on a gap or overlap and
    /// <see cref="IOException"/> if a file is missing, too short for its slice, or changed since a flattened
    /// virtual file was built over it.
    /// </summary>
    public VirtualFile Build(long? length = null)
    {
        var sorted = System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_pending);
        if (!IsSorted(sorted))
            sorted.Sort(static (a, b) => a.At.CompareTo(b.At)); // builders that append (most) skip this

        long end = 0;
        foreach (var p in sorted)
        {
            if (p.At > end)
                throw new InvalidDataException($"Virtual file layout has a gap: no bytes for [{end}, {p.At}).");
            if (p.At < end)
                throw new InvalidDataException($"Virtual file layout has an overlap: [{p.At}, {p.At + p.Length}) starts before {end}, the end of the previous segment.");
            end = p.At + p.Length;
        }
        long total = length ?? end;
        if (total != end)
            throw new InvalidDataException(end < total
                ? $"Virtual file layout has a gap: no bytes for [{end}, {total})."
                : $"Virtual file layout has {end - total} bytes past its declared length {total}.");

        // One FileSource per file, shared by all its segments; each holds one pool reference.
        var acquired = new Dictionary<(string, FileIdentity?), FileSource>();
        try
        {
            var segments = MergeAdjacent(sorted, acquired);
            return new VirtualFile(segments, acquired.Values.Select(f => f.File).ToArray(), total, _pool.Streaming);
        }
        catch
        {
            foreach (var source in acquired.Values)
                _pool.Release(source.File);
            throw;
        }
    }

    private Segment[] MergeAdjacent(ReadOnlySpan<Pending> sorted, Dictionary<(string, FileIdentity?), FileSource> acquired)
    {
        var segments = new Segment[sorted.Length];
        int count = 0;
        foreach (var p in sorted)
        {
            var source = p.Source ?? FileSourceFor(p, acquired);
            if (count > 0)
            {
                var last = segments[count - 1];
                bool contiguous = last.SourceOffset + last.Length == p.SourceOffset;
                bool sameSource = ReferenceEquals(source, last.Source)
                                  || (source is FileSource f && last.Source is FileSource g && f.File == g.File);
                bool bothZero = source is ZeroSource && last.Source is ZeroSource;
                if ((sameSource && contiguous) || bothZero)
                {
                    segments[count - 1] = last with { Length = last.Length + p.Length };
                    continue;
                }
            }
            segments[count++] = new Segment(p.At, p.Length, source, p.SourceOffset);
        }
        Array.Resize(ref segments, count);
        return segments;
    }

    private FileSource FileSourceFor(Pending p, Dictionary<(string, FileIdentity?), FileSource> acquired)
    {
        var key = (p.Path!, p.Expected);
        if (!acquired.TryGetValue(key, out var source))
        {
            source = new FileSource(_pool.Acquire(p.Path!, p.Expected));
            acquired.Add(key, source);
        }
        if (p.SourceOffset > source.Identity.Length - p.Length)
        {
            throw new IOException(
                $"{source.Path}: slice [{p.SourceOffset}, {p.SourceOffset + p.Length}) is past the end of the file ({source.Identity.Length} bytes)");
        }
        return source;
    }

    private VirtualFileBuilder Add(long at, long length, Pending pending)
    {
        CheckRange(at, length);
        if (pending.Path is not null && pending.SourceOffset < 0)
            throw new ArgumentOutOfRangeException(nameof(pending), $"File offset {pending.SourceOffset} is negative for {pending.Path}.");
        if (length > 0 && !TryExtendLast(pending))
            _pending.Add(pending);
        Position = Math.Max(Position, at + length);
        return this;
    }

    // Builders append runs of unchanged entries as one slice each; folding each into the previous one when it
    // continues it keeps the pending list (and the memory it takes) as short as the final segment table.
    private bool TryExtendLast(Pending next)
    {
        if (_pending.Count == 0)
            return false;
        var last = _pending[^1];
        if (last.At + last.Length != next.At)
            return false;
        bool sameFile = next.Path is not null && last.Path is not null && last.Expected == next.Expected
                        && last.SourceOffset + last.Length == next.SourceOffset && string.Equals(last.Path, next.Path, StringComparison.Ordinal);
        bool bothZeros = next.Source is ZeroSource && last.Source is ZeroSource;
        if (!sameFile && !bothZeros)
            return false;
        _pending[^1] = last with { Length = last.Length + next.Length };
        return true;
    }

    private static bool IsSorted(ReadOnlySpan<Pending> pending)
    {
        for (int i = 1; i < pending.Length; i++)
        {
            if (pending[i].At < pending[i - 1].At)
                return false;
        }
        return true;
    }

    private static void CheckRange(long at, long length)
    {
        if (at < 0)
            throw new ArgumentOutOfRangeException(nameof(at), at, "Segment offset must not be negative.");
        if (length < 0)
            throw new ArgumentOutOfRangeException(nameof(length), length, "Segment length must not be negative.");
        if (at > long.MaxValue - length)
            throw new ArgumentOutOfRangeException(nameof(length), length, "Segment end overflows a 64-bit offset.");
    }

    private readonly record struct Pending(
        long At, long Length, long SourceOffset, string? Path, FileIdentity? Expected, SegmentSource? Source);
}
