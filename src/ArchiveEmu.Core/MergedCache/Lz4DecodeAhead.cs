using System.Collections.Concurrent;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// Background threads that decode the LZ4 chunks a sequential reader of a merged archive is about to reach, into the
/// <see cref="DecodedChunkStore"/>, while the reader copies out the ones ready: decoding (about 2 GB/s a core here)
/// then runs on the other core instead of the reader's. Requests are hints: a full queue drops them, and a reader that
/// reaches a chunk nobody is decoding decodes it itself, so no reader waits for queued work.
/// </summary>
internal static class Lz4DecodeAhead
{
    private const int QueueCapacity = 256;
    // Pieces small enough that several threads share one reader's window, and a jump abandons little work.
    internal const int PieceChunks = 8;
    // One thread per core beside the reader's; more only compete with the readers they serve.
    private static readonly int Threads = Math.Clamp(Environment.ProcessorCount - 1, 1, 4);
    private static readonly BlockingCollection<Request> s_queue = new(QueueCapacity);
    private static int s_started;

    /// <summary>
    /// Asks for chunks [<paramref name="from"/>, <paramref name="to"/>) of <paramref name="chunks"/>: ahead of the reader's
    /// pass <paramref name="pass"/>, or <paramref name="behind"/> it, to keep what the reader decoded itself.
    /// </summary>
    public static void Enqueue(Lz4Chunks chunks, int from, int to, int pass, bool behind)
    {
        if (Interlocked.Exchange(ref s_started, 1) == 0)
        {
            for (int i = 0; i < Threads; i++)
                new Thread(Run) { IsBackground = true, Name = "archiveemu-lz4-ahead" }.Start();
        }
        for (int at = from; at < to; at += PieceChunks)
        {
            if (!s_queue.TryAdd(new Request(chunks, at, Math.Min(to, at + PieceChunks), pass, behind)))
                return;
        }
    }

    private static void Run()
    {
        foreach (var request in s_queue.GetConsumingEnumerable())
        {
            try
            {
                request.Chunks.DecodeAhead(request.From, request.To, request.Pass, request.Behind);
            }
            catch (Exception)
            {
                // A hint that failed (a disposed file, a pack gone) is the reader's to meet if it still reads there; an
                // exception escaping this thread would end the process.
            }
        }
    }

    private readonly record struct Request(Lz4Chunks Chunks, int From, int To, int Pass, bool Behind);
}
