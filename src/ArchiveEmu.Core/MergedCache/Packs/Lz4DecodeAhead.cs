using System.Buffers;
using System.Collections.Concurrent;

namespace ArchiveEmu.Core.MergedCache.Packs;

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
    // Decoded bytes waiting in the queue to be kept: past this a reader's chunks are not kept (they are decoded again at
    // the next pass), so readers faster than the background threads cannot grow memory (the queue alone would allow
    // 256 reads of up to 4 MiB).
    private const long MaxWaitingBytes = 16L << 20;
    private static long s_waitingBytes;
    private static int s_started;

    /// <summary>Asks for chunks [<paramref name="from"/>, <paramref name="to"/>) of <paramref name="chunks"/>, for the reader's pass <paramref name="pass"/>.</summary>
    public static void Enqueue(Lz4Chunks chunks, int from, int to, int pass)
    {
        StartThreads();
        for (int at = from; at < to; at += PieceChunks)
        {
            if (!s_queue.TryAdd(new Request(chunks, at, Math.Min(to, at + PieceChunks), pass, null)))
                return;
        }
    }

    /// <summary>
    /// Asks for chunks <paramref name="first"/>…<paramref name="last"/> of <paramref name="chunks"/>, which the reader
    /// decoded and checked, to be kept from <paramref name="decoded"/> (rented from the shared pool; returned here).
    /// </summary>
    public static void EnqueueKeep(Lz4Chunks chunks, int first, int last, byte[] decoded)
    {
        StartThreads();
        if (Interlocked.Add(ref s_waitingBytes, decoded.Length) > MaxWaitingBytes
            || !s_queue.TryAdd(new Request(chunks, first, last, 0, decoded)))
        {
            Interlocked.Add(ref s_waitingBytes, -decoded.Length);
            ArrayPool<byte>.Shared.Return(decoded);
        }
    }

    private static void StartThreads()
    {
        if (Interlocked.Exchange(ref s_started, 1) == 0)
        {
            for (int i = 0; i < Threads; i++)
                new Thread(Run) { IsBackground = true, Name = "archiveemu-lz4-ahead" }.Start();
        }
    }

    private static void Run()
    {
        foreach (var request in s_queue.GetConsumingEnumerable())
        {
            try
            {
                if (request.Decoded is { } decoded)
                    request.Chunks.KeepDecoded(request.From, request.To, decoded);
                else
                    request.Chunks.DecodeAhead(request.From, request.To, request.Pass);
            }
            catch (Exception)
            {
                // A hint that failed (a disposed file, a pack gone) is the reader's to meet if it still reads there; an
                // exception escaping this thread would end the process.
            }
            finally
            {
                if (request.Decoded is { } decoded)
                {
                    Interlocked.Add(ref s_waitingBytes, -decoded.Length);
                    ArrayPool<byte>.Shared.Return(decoded);
                }
            }
        }
    }

    // Decoded: bytes the reader decoded, to keep (From…To inclusive); null: decode [From, To) ahead of it
    private readonly record struct Request(Lz4Chunks Chunks, int From, int To, int Pass, byte[]? Decoded);
}
