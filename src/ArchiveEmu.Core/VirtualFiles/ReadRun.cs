namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// What one reader of a virtual file has shown of itself: the run of bytes it has read one after another (each read
/// starting near where the run has got to), counted as read, not as the span they cover. A run is the
/// evidence of a stream (a movie, a copy, a loader going through the archive in order) that <see cref="StreamingBringIn"/>
/// waits for before it reads ahead, and the measure of how far ahead it may read: the size of one read says nothing (a
/// game loads whole entries at random in 64 KiB–1 MiB reads, and bringing in megabytes around each read 13× the bytes
/// the game asked for, issue 47). One per open file in the host (the FUSE handle), one per <see cref="VirtualFileStream"/>,
/// and one a virtual file shares among the readers that name none. Safe from many threads: the fields are hints, and
/// requests of one reader that arrive in another order (FUSE sends a reader's read-ahead as several requests at once) still
/// continue its run.
/// </summary>
internal sealed class ReadRun
{
    /// <summary>
    /// How far from the furthest end read so far a read may start, either way, and still continue the run: the FUSE
    /// requests of one reader's read-ahead (up to 1 MiB each) are served by several threads in any order, and a loader going
    /// through the archive in order skips the entries it does not need.
    /// </summary>
    internal const long Slack = 2L << 20;

    private long _end = -1, _bytes, _askedTo;

    /// <summary>
    /// Records a read of [<paramref name="offset"/>, +<paramref name="length"/>) and returns the bytes the run it belongs to
    /// has read, this read included. Reads smaller than <see cref="PageCacheStreaming.MinStreamingRead"/> neither continue
    /// nor end a run (0): small random reads write nothing here, and a stream through FUSE arrives in requests of 128 KiB
    /// or more.
    /// </summary>
    public long Record(long offset, int length)
    {
        if (!PageCacheStreaming.IsStreaming(length))
            return 0;
        long end = Volatile.Read(ref _end), readEnd = offset + length;
        if (end >= 0 && offset >= end - Slack && offset <= end + Slack)
        {
            if (readEnd > end)
                Volatile.Write(ref _end, readEnd);
            long bytes = Volatile.Read(ref _bytes) + length;
            Volatile.Write(ref _bytes, bytes);
            return bytes;
        }
        Volatile.Write(ref _end, readEnd);
        Volatile.Write(ref _bytes, length);
        return length;
    }

    /// <summary>
    /// The part of [<paramref name="from"/>, <paramref name="to"/>) not asked for ahead of this reader yet, marked as asked
    /// (empty when all of it was): each byte is hinted once, not once per request.
    /// </summary>
    public (long From, long To) AskAhead(long from, long to)
    {
        long asked = Volatile.Read(ref _askedTo);
        if (asked > from && asked < to + Slack) // asked in this run already, up to there
            from = asked;
        if (from >= to)
            return (to, to);
        Volatile.Write(ref _askedTo, to);
        return (from, to);
    }
}
