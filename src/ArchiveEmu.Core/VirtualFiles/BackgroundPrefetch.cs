using System.Collections.Concurrent;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// A few background threads that bring the next file slices of streaming readers into the page cache (in large folios,
/// see <see cref="PageCacheReads"/>) while they copy the current one: the device keeps reading across the jumps between
/// slices. Filling large folios means waiting for the reads, which a reader must not do for slices it has not reached.
/// Requests are hints: when the queue is full they are dropped, and a reader that arrives first fills the range itself.
/// </summary>
internal static class BackgroundPrefetch
{
    private const int QueueCapacity = 256;
    // Each bring-in waits for its reads; several at once keep the device busy across many small files.
    private const int Threads = 4;
    private const long PieceBytes = 2L << 20;
    private static readonly BlockingCollection<Request> s_queue = new(QueueCapacity);
    private static int s_started;

    /// <summary>
    /// Asks for [offset, +length) of <paramref name="target"/>, which <paramref name="reader"/> needs until it has
    /// streamed to <paramref name="doneAt"/> (in its own offsets); once it is past that, the request is dropped unread.
    /// </summary>
    public static void Enqueue(IBringInAhead target, long offset, long length, long alsoNeeded, IStreamingReader reader, long doneAt)
    {
        if (Interlocked.Exchange(ref s_started, 1) == 0)
        {
            for (int i = 0; i < Threads; i++)
                new Thread(Run) { IsBackground = true, Name = "archiveemu-prefetch" }.Start();
        }
        // In pieces of at most one PMD folio, so the threads read a long range in parallel: each bring-in waits for its
        // own piece only (a single thread would keep one 2 MiB read in flight at a time).
        for (long end = offset + length; offset < end;)
        {
            long piece = Math.Min(end, (offset & ~(PieceBytes - 1)) + PieceBytes) - offset;
            if (!s_queue.TryAdd(new Request(target, offset, piece, alsoNeeded, reader, doneAt - (end - offset - piece))))
                return;
            offset += piece;
        }
    }

    private static void Run()
    {
        foreach (var request in s_queue.GetConsumingEnumerable())
        {
            if (request.Reader.StreamedTo >= request.DoneAt)
                continue; // the reader got there first (or its pages were dropped since): reading it now only competes
            try
            {
                request.Target.BringInAhead(request.Offset, request.Length, request.AlsoNeeded);
            }
            catch (Exception)
            {
                // Any failure of a hint is the reader's to meet, if it still reads there (a file that changed or went
                // away, a disposed virtual file): an exception escaping this thread would end the whole process.
            }
        }
    }

    private readonly record struct Request(IBringInAhead Target, long Offset, long Length, long AlsoNeeded, IStreamingReader Reader, long DoneAt);
}

/// <summary>Something whose file ranges <see cref="BackgroundPrefetch"/> can bring into the page cache.</summary>
internal interface IBringInAhead
{
    /// <summary>
    /// Brings in what is not cached yet of [offset, +length), of which the reader also needs
    /// <paramref name="alsoNeeded"/> bytes around it (see <see cref="PageCacheReads.BringIn"/>); runs on the background thread.
    /// </summary>
    void BringInAhead(long offset, long length, long alsoNeeded);
}

/// <summary>A reader going through a file that <see cref="BackgroundPrefetch"/> works for.</summary>
internal interface IStreamingReader
{
    /// <summary>How far (in the reader's own offsets) its current pass has read.</summary>
    long StreamedTo { get; }
}
