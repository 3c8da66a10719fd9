using System.Diagnostics;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// The reads of issue 47's patterns on one file (the plain file or a mounted one, the same offsets in both), each opened,
/// read and closed as a game does. The main one, <see cref="Trace"/>: a loader reading the CPK's header and TOC, then whole
/// entries in a fixed random order, each in pieces of one size drawn per entry from 64 KiB–1 MiB.
/// </summary>
internal sealed class LoadTrace(LoadTraceGame game, int tracedEntries, int seed)
{
    private static readonly int[] ChunkSizes = [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];

    /// <summary>The entries the trace loads, in its order, each with its piece size.</summary>
    private readonly (LoadTraceGame.Entry Entry, int Chunk)[] _loads = Plan(game, tracedEntries, seed);

    /// <summary>What one pass of a pattern took: in all, per item (entry or read) in µs, and the header and TOC's part.</summary>
    public sealed record Result(double TotalMs, double[] ItemsUs, double FrontMs, long Bytes);

    public long TracedBytes => _loads.Sum(l => l.Entry.Length) + 2048 + game.TocLength;

    private static (LoadTraceGame.Entry, int)[] Plan(LoadTraceGame game, int count, int seed)
    {
        var random = new Random(seed);
        return game.Entries.OrderBy(_ => random.Next()).Take(count).Select(e => (e, ChunkSizes[random.Next(ChunkSizes.Length)])).ToArray();
    }

    /// <summary>Open; the 2 KiB header; the TOC in one read; each planned entry whole, piece by piece; close.</summary>
    public Result Trace(string path)
    {
        var clock = Stopwatch.StartNew();
        using var handle = File.OpenHandle(path);
        var buffer = GC.AllocateUninitializedArray<byte>((int)Math.Max(game.TocLength, 1 << 20), pinned: true);
        ReadFully(handle, buffer.AsSpan(0, 2048), 0);
        ReadFully(handle, buffer.AsSpan(0, (int)game.TocLength), game.TocOffset);
        double front = clock.Elapsed.TotalMilliseconds;
        var items = new double[_loads.Length];
        long bytes = 2048 + game.TocLength;
        for (int i = 0; i < _loads.Length; i++)
        {
            long start = Stopwatch.GetTimestamp();
            bytes += ReadEntry(handle, _loads[i].Entry, buffer.AsSpan(0, _loads[i].Chunk));
            items[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
        }
        handle.Dispose();
        return new Result(clock.Elapsed.TotalMilliseconds, items, front, bytes);
    }

    /// <summary>Many small entries (at most 64 KiB) in random order, each in one read.</summary>
    public Result SmallEntries(string path, int count)
    {
        var random = new Random(seed + 1);
        var picked = game.Entries.Where(e => e.Length <= 64 << 10).OrderBy(_ => random.Next()).Take(count).ToArray();
        return EachRead(path, picked.Select(e => (e.Offset, (int)e.Length)).ToArray(), 64 << 10);
    }

    /// <summary>Reads that cross from an original slice into a replaced entry's mod file: the last 64 KiB before each replaced entry and its first 64 KiB, in one read.</summary>
    public Result Boundaries(string path)
    {
        var random = new Random(seed + 2);
        var reads = game.Entries.Where(e => e.Modded && e.Offset >= 64 << 10).OrderBy(_ => random.Next())
            .Select(e => (e.Offset - (64 << 10), (int)Math.Min(128 << 10, e.Length + (64 << 10)))).ToArray();
        return EachRead(path, reads, 128 << 10);
    }

    /// <summary>A movie: the biggest entries, each read from start to end in 256 KiB pieces; MB/s as Bytes / TotalMs.</summary>
    public Result Movie(string path, int count)
    {
        var biggest = game.Entries.OrderByDescending(e => e.Length).Take(count).ToArray();
        var clock = Stopwatch.StartNew();
        using var handle = File.OpenHandle(path);
        var buffer = GC.AllocateUninitializedArray<byte>(256 << 10, pinned: true);
        long bytes = biggest.Sum(e => ReadEntry(handle, e, buffer));
        return new Result(clock.Elapsed.TotalMilliseconds, [], 0, bytes);
    }

    /// <summary>The trace with a streaming thread beside it on another handle (a movie or music while the loader runs); the loader's items.</summary>
    public Result WithStreamer(string path)
    {
        var clock = Stopwatch.StartNew();
        var streamer = Task.Run(() => Movie(path, 4));
        var loader = Trace(path);
        var streamed = streamer.GetAwaiter().GetResult();
        return new Result(clock.Elapsed.TotalMilliseconds, loader.ItemsUs, loader.FrontMs, loader.Bytes + streamed.Bytes);
    }

    /// <summary>The whole file in 1 MiB reads.</summary>
    public static Result Sequential(string path)
    {
        var clock = Stopwatch.StartNew();
        var buffer = GC.AllocateUninitializedArray<byte>(1 << 20, pinned: true);
        long total = 0;
        using (var handle = File.OpenHandle(path))
            for (int read; (read = RandomAccess.Read(handle, buffer, total)) > 0;)
                total += read;
        return new Result(clock.Elapsed.TotalMilliseconds, [], 0, total);
    }

    /// <summary>4 KiB reads at seeded random 4 KiB-aligned offsets.</summary>
    public Result Random4K(string path, int count)
    {
        var random = new Random(seed + 3);
        long blocks = game.Length / 4096;
        return EachRead(path, Enumerable.Range(0, count).Select(_ => (random.NextInt64(blocks) * 4096, 4096)).ToArray(), 4096);
    }

    private static Result EachRead(string path, (long Offset, int Length)[] reads, int largest)
    {
        var clock = Stopwatch.StartNew();
        using var handle = File.OpenHandle(path);
        var buffer = GC.AllocateUninitializedArray<byte>(largest, pinned: true);
        var items = new double[reads.Length];
        long bytes = 0;
        for (int i = 0; i < reads.Length; i++)
        {
            long start = Stopwatch.GetTimestamp();
            ReadFully(handle, buffer.AsSpan(0, reads[i].Length), reads[i].Offset);
            items[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
            bytes += reads[i].Length;
        }
        return new Result(clock.Elapsed.TotalMilliseconds, items, 0, bytes);
    }

    private static long ReadEntry(Microsoft.Win32.SafeHandles.SafeFileHandle handle, LoadTraceGame.Entry entry, Span<byte> piece)
    {
        for (long at = 0; at < entry.Length; at += piece.Length)
            ReadFully(handle, piece[..(int)Math.Min(piece.Length, entry.Length - at)], entry.Offset + at);
        return entry.Length;
    }

    private static void ReadFully(Microsoft.Win32.SafeHandles.SafeFileHandle handle, Span<byte> destination, long offset)
    {
        while (!destination.IsEmpty)
        {
            int read = RandomAccess.Read(handle, destination, offset);
            if (read == 0)
                throw new EndOfStreamException($"a read at {offset} found the end of the file");
            destination = destination[read..];
            offset += read;
        }
    }
}
