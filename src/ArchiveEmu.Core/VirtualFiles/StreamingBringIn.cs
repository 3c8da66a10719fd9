namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// The page-cache policy of one virtual file, kept apart from its reads: a read of a reader that streams (its
/// <see cref="ReadRun"/> is at least <see cref="PageCacheStreaming.MinStreamRun"/>) that finds its file slices not cached
/// brings them in (in large folios, see <see cref="PageCacheReads"/>) before it reads them, and a streaming reader going
/// through the file while its sources are cold keeps the next slices requested ahead of it (<see cref="BackgroundPrefetch"/>);
/// both no further than the reader's run so far. Any other read reads what it asks for, nothing more.
/// A warm pass asks for nothing, and a read allocates nothing here: its state is a <see cref="ReadPass"/> on its stack.
/// Safe from many threads: the shared fields are hints, written only when they change, so warm readers share the cache line.
/// How much is brought in and asked ahead is the <paramref name="policy"/>'s (<see cref="PageCacheStreaming.ForVirtualFiles"/>).
/// </summary>
internal sealed class StreamingBringIn(Segment[] segments, PageCacheStreaming policy) : IStreamingReader
{
    // Ask for the next few file slices (up to policy.AheadBytes). Threads racing here may ask for a range twice; what is
    // cached or in flight is skipped.

    private int _hintedThrough = -1; // the last segment a read-ahead hint covered (written only when hinting)
    private int _coldPass; // 1 while the current streaming pass finds its sources not cached (written only when it changes)
    private long _streamedTo; // where the last streaming read of a cold pass ended (written only in cold passes)

    /// <summary>What one read has seen so far.</summary>
    internal struct ReadPass
    {
        internal bool Streaming, FromTheStart, Missed;
        internal int First;
        internal long Run; // the reader's run, this read included: the most it may bring in or ask for ahead
    }

    /// <summary>A read at <paramref name="offset"/>, starting in segment <paramref name="first"/>, by a reader whose run this read makes <paramref name="run"/> bytes.</summary>
    public ReadPass Begin(long offset, long run, int first) =>
        new() { Streaming = policy.IsStream(run), FromTheStart = offset == 0, First = first, Run = run };

    /// <summary>Before the read of [<paramref name="within"/>, +<paramref name="count"/>) of segment <paramref name="index"/>: brings it in if a streaming read finds it not cached.</summary>
    public void BeforeRead(ref ReadPass pass, int index, long within, int count)
    {
        ref readonly var segment = ref segments[index];
        if (!pass.Streaming || segment.Source is not FileSource file || !file.IsMissing(segment.SourceOffset + within, count))
            return;
        pass.Missed = true;
        long reach = PageCacheStreaming.Within(policy.BringInBytes, pass.Run);
        BringInForReader(file, index, segment.SourceOffset + within, count, reach);
        BringInNextSliceOf(file, index, reach);
    }

    // Apart from BeforeRead so that only a miss allocates the closure (captured parameters are allocated on entry).
    private void BringInForReader(FileSource file, int index, long sourceOffset, int count, long reach) =>
        file.BringInForReader(sourceOffset, count, segments[index].SourceOffset + segments[index].Length, reach,
            (spanStart, spanEnd) => NeighboursWithin(index, file, spanStart, spanEnd));

    /// <summary>After a read that ended at virtual offset <paramref name="end"/> in segment <paramref name="last"/>: keeps a cold pass's next slices asked for.</summary>
    public void AfterRead(in ReadPass pass, int last, long end)
    {
        // A streaming reader's read that ran to (or past) the end of a segment (a movie, cp, a loader going through the archive
        // in order): while its pass finds the sources cold, keep the next slices requested ahead of it. A warm pass asks for
        // nothing (that would cost a check per slice). Reads of a reader with no run never hint.
        // Nothing is written per warm read, so concurrent readers share the cache line.
        if (!pass.Streaming)
            return;
        bool missed = pass.Missed;
        if ((missed || pass.FromTheStart) && (missed ? 1 : 0) != _coldPass)
            Volatile.Write(ref _coldPass, missed ? 1 : 0); // a new pass starts warm or cold; any miss makes it cold
        // A miss asks at once, not only at the segment's end: the kernel's own read-ahead, set off by the folios just
        // brought in, would otherwise fill what follows in small pages before the background thread gets there.
        bool cold = Volatile.Read(ref _coldPass) != 0;
        if (cold)
            Volatile.Write(ref _streamedTo, end);
        long segmentEnd = segments[last].VirtualOffset + segments[last].Length;
        if ((missed || last > pass.First || end == segmentEnd) && (cold || !PageCacheReads.CanTell))
        {
            int hinted = pass.FromTheStart ? -1 : Volatile.Read(ref _hintedThrough); // a new pass: earlier hints may be long gone
            int next = hinted >= last && hinted <= last + 2 * policy.AheadSegments ? hinted + 1 : last + 1; // else: a hint of another pass
            if (next <= last + policy.AheadSegments / 4 && next < segments.Length) // refill once a quarter is left
                HintNextSegments(next, PageCacheStreaming.Within(policy.AheadBytes, pass.Run));
        }
    }

    long IStreamingReader.StreamedTo => Volatile.Read(ref _streamedTo);

    /// <summary>
    /// For a reader whose run is not a stream: asks the kernel (WILLNEED) for the file bytes behind virtual
    /// [<paramref name="end"/>, +<paramref name="reach"/>), starting in segment <paramref name="index"/> or after it, the
    /// part the reader has not had asked for yet. What is cached costs the kernel a look.
    /// </summary>
    public void AskAheadOfShortRun(ReadRun reader, int index, long end, long reach)
    {
        var (from, to) = reader.AskAhead(end, end + reach);
        for (int j = index; j < segments.Length && from < to; j++)
        {
            ref readonly var segment = ref segments[j];
            long segmentEnd = segment.VirtualOffset + segment.Length;
            if (segmentEnd <= from)
                continue;
            long upTo = Math.Min(to, segmentEnd);
            if (segment.Source is FileSource file)
            {
                try
                {
                    ReadAheadHint.WillNeedSoon(file.File.GetHandle(), segment.SourceOffset + (from - segment.VirtualOffset), upTo - from);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    // a hint: the read of those bytes, if it comes, reports what is wrong
                }
            }
            from = upTo;
        }
    }

    /// <summary>The last segment a read-ahead hint has asked for (-1: none yet); for tests.</summary>
    internal int HintedThrough => Volatile.Read(ref _hintedThrough);

    // Reading the folios just brought in sets off the kernel's own read-ahead, which fills the next uncached pages of the
    // same file (up to its read-ahead size) in small folios. When the next slice is of the same file and close, it is
    // brought in first, before that can happen; later slices are the background thread's, which is then ahead.
    private void BringInNextSliceOf(FileSource file, int current, long reach)
    {
        int next = current + 1;
        while (next < segments.Length && segments[next].Source is not FileSource)
            next++;
        if (next == segments.Length || segments[next].Source != file)
            return;
        ref readonly var segment = ref segments[next];
        long after = segments[current].SourceOffset + segments[current].Length;
        if (segment.SourceOffset < after || segment.SourceOffset - after > reach)
            return;
        try
        {
            long length = Math.Min(segment.Length, reach);
            var (spanStart, spanEnd) = PageCacheReads.Span(segment.SourceOffset, length, file.Identity.Length);
            file.BringInAhead(segment.SourceOffset, length, NeighboursWithin(next, file, spanStart, spanEnd));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a hint: the read of that slice, if it comes, reports what is wrong
        }
    }

    // Bytes of [spanStart, spanEnd) of the file that nearby segments (other than segment `index`) read too: an original
    // read around small injected entries needs most of the folios a small slice of it falls in.
    private long NeighboursWithin(int index, FileSource file, long spanStart, long spanEnd)
    {
        const int Nearby = 16;
        long needed = 0;
        for (int j = Math.Max(0, index - Nearby); j < segments.Length && j <= index + Nearby; j++)
        {
            ref readonly var segment = ref segments[j];
            if (j == index || segment.Source != file)
                continue;
            long from = Math.Max(spanStart, segment.SourceOffset), to = Math.Min(spanEnd, segment.SourceOffset + segment.Length);
            if (to > from)
                needed += to - from;
        }
        return needed;
    }

    private void HintNextSegments(int first, long reach)
    {
        long bytes = 0;
        int j = first;
        for (; j < segments.Length && j < first + policy.AheadSegments && bytes < reach; j++)
        {
            ref readonly var segment = ref segments[j];
            long length = Math.Min(segment.Length, reach - bytes);
            if (segment.Source is FileSource file)
            {
                var (spanStart, spanEnd) = PageCacheReads.Span(segment.SourceOffset, length, file.Identity.Length);
                file.PrefetchSoon(segment.SourceOffset, length, NeighboursWithin(j, file, spanStart, spanEnd), this, segment.VirtualOffset + length);
            }
            bytes += length;
        }
        Volatile.Write(ref _hintedThrough, j - 1);
    }
}
