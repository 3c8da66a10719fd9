using System.Diagnostics;
using System.IO.Hashing;
using System.Runtime.InteropServices;
using ArchiveEmu.Core.MergedCache.Packs;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Measures the read paths of one scenario: per run, every path's whole-archive read, then every path's
/// 4 KiB random reads, then every path's random entries (a game's loader: whole entries in random order, each in pieces of
/// one size drawn per entry from 64 KiB–1 MiB; issue 47), interleaved (path order rotates each run) so drift on a shared machine cancels in the
/// ratios, after untimed warm-up passes. Only the read calls are timed; each block is hashed between them and every path must deliver
/// exactly solid's bytes.
/// </summary>
internal sealed class ReadRunner(ScenarioFiles files, BenchOptions options, Action<string> status, CancellationToken cancel)
{
    private readonly byte[] _block = new byte[options.BlockSize];
    private readonly byte[] _small = new byte[BenchOptions.RandomReadSize];
    private readonly long[] _randomOffsets = RandomOffsets(files.Length, options.RandomReads);
    private readonly LoadedEntry[] _entries = LoadedEntries(files.SolidPath);
    private readonly byte[] _piece = new byte[LargestPiece];

    public IReadOnlyList<PathMeasurements> Run(IReadOnlyList<ReadPath> paths)
    {
        WarmUp(paths);
        var results = paths.Select(p => new PathMeasurements(p)).ToList();
        var solid = results.Single(r => r.Name == ReadPath.Solid);
        for (int run = 0; run < options.Runs; run++)
        {
            var order = results.Skip(run % results.Count).Concat(results.Take(run % results.Count)).ToList();
            foreach (var r in order)
            {
                status($"{files.Scenario.Name}: run {run + 1}/{options.Runs}, whole read, {r.Name}");
                MeasureWhole(r, first: run == 0);
            }
            foreach (var r in order)
            {
                status($"{files.Scenario.Name}: run {run + 1}/{options.Runs}, random reads, {r.Name}");
                MeasureRandom(r, first: run == 0);
            }
            foreach (var r in order)
            {
                status($"{files.Scenario.Name}: run {run + 1}/{options.Runs}, random entries, {r.Name}");
                MeasureEntries(r);
            }
            foreach (var r in results)
            {
                r.WholeRatioToSolid.Add(r.WholeMbps[^1] / solid.WholeMbps[^1]);
                r.RandomRatioToSolid.Add(r.RandomMbps[^1] / solid.RandomMbps[^1]);
                r.EntriesRatioToSolid.Add(r.EntriesMbps[^1] / solid.EntriesMbps[^1]);
            }
            foreach (var r in results)
                CheckSameBytes(r, solid);
        }
        return results;
    }

    // One untimed pass of every path first, then a pause: the JIT's tiered compilation promotes the hot loops
    // (ours, Core's, the hash and LZ4 libraries') to optimised code before anything is timed.
    // Before that, every file's pages are dropped once, warm runs too: the page cache then holds what reading
    // put there, not what writing did (a file written in 64 KiB pieces sits in small folios and reads back at
    // 0.75x of one written in 1 MiB pieces — the bench's own files would otherwise decide the warm ratios).
    private void WarmUp(IReadOnlyList<ReadPath> paths)
    {
        if (OperatingSystem.IsLinux())
            PageCache.Drop(files.AllFiles());
        for (int pass = 0; pass < 2; pass++)
        {
            foreach (var path in paths)
            {
                status($"{files.Scenario.Name}: warming up, {path.Name}");
                var scratch = new PathMeasurements(path);
                MeasureWhole(scratch, first: false);
                MeasureRandom(scratch, first: false);
                MeasureEntries(scratch);
            }
            Thread.Sleep(options.WarmUpPause);
        }
    }

    private void Cool()
    {
        if (!options.Cold)
            return;
        DecodedChunkStore.ClearShared(); // a real cold start is a new process, which has no decoded chunks kept
        if (options.DropAllCaches)
            PageCache.DropAll();
        else
            PageCache.Drop(files.AllFiles());
    }

    private void MeasureWhole(PathMeasurements r, bool first)
    {
        Cool();
        long? baseline = ProcessCounters.ResetPeak();
        long start = Stopwatch.GetTimestamp();
        using var file = r.Path.Open();
        r.OpenMs.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        var hashes = new ulong[(int)((file.Length + _block.Length - 1) / _block.Length)];
        var trace = first ? new ReadTrace() : null;
        var io = ProcessCounters.ReadThreadIo();
        double seconds = ReadSerial(file, hashes, trace);
        r.WholeIo = ProcessCounters.Between(io, ProcessCounters.ReadThreadIo());
        r.NotePeak(ProcessCounters.PeakSince(baseline));
        r.WholeMbps.Add(file.Length / seconds / 1e6);
        r.Opens = file.Opens;
        r.WholeHash = XxHash3.HashToUInt64(MemoryMarshal.AsBytes(hashes.AsSpan()));
        if (trace is not null)
            r.WholeTrace = trace;
    }

    private double ReadSerial(BenchFile file, ulong[] hashes, ReadTrace? trace)
    {
        long ticks = 0;
        for (int b = 0; b < hashes.Length; b++)
        {
            cancel.ThrowIfCancellationRequested();
            long at = (long)b * _block.Length;
            long t0 = Stopwatch.GetTimestamp();
            int n = file.Read(at, _block);
            ticks += Stopwatch.GetTimestamp() - t0;
            hashes[b] = XxHash3.HashToUInt64(_block.AsSpan(0, n));
            if (trace is not null)
                file.Trace(at, n, trace);
        }
        return (double)ticks / Stopwatch.Frequency;
    }

    private void MeasureRandom(PathMeasurements r, bool first)
    {
        Cool();
        long? baseline = ProcessCounters.ResetPeak();
        using var file = r.Path.Open();
        var trace = first ? new ReadTrace() : null;
        var hash = new XxHash3();
        long ticks = 0;
        foreach (long offset in _randomOffsets)
        {
            cancel.ThrowIfCancellationRequested();
            long t0 = Stopwatch.GetTimestamp();
            int n = file.Read(offset, _small);
            ticks += Stopwatch.GetTimestamp() - t0;
            hash.Append(_small.AsSpan(0, n));
            if (trace is not null)
                file.Trace(offset, n, trace);
        }
        r.NotePeak(ProcessCounters.PeakSince(baseline));
        r.RandomMbps.Add(_randomOffsets.Length * (double)_small.Length / ((double)ticks / Stopwatch.Frequency) / 1e6);
        r.RandomHash = hash.GetCurrentHashAsUInt64();
        if (trace is not null)
            r.RandomTrace = trace;
    }

    private void MeasureEntries(PathMeasurements r)
    {
        Cool();
        using var file = r.Path.Open();
        var hash = new XxHash3();
        long ticks = 0, bytes = 0;
        foreach (var entry in _entries)
        {
            for (long at = 0; at < entry.Length; at += entry.Piece)
            {
                cancel.ThrowIfCancellationRequested();
                var piece = _piece.AsSpan(0, (int)Math.Min(entry.Piece, entry.Length - at));
                long t0 = Stopwatch.GetTimestamp();
                int n = file.Read(entry.Offset + at, piece);
                ticks += Stopwatch.GetTimestamp() - t0;
                hash.Append(piece[..n]);
                bytes += n;
            }
        }
        r.EntriesMbps.Add(bytes / ((double)ticks / Stopwatch.Frequency) / 1e6);
        r.EntriesHash = hash.GetCurrentHashAsUInt64();
    }

    private void CheckSameBytes(PathMeasurements r, PathMeasurements solid)
    {
        if (r.WholeHash != solid.WholeHash || r.RandomHash != solid.RandomHash || r.EntriesHash != solid.EntriesHash)
            throw new InvalidDataException($"{files.Scenario.Name}: path {r.Name} read different bytes than {ReadPath.Solid} (content hash mismatch)");
    }

    private const int LargestPiece = 1 << 20, MostEntries = 400;

    /// <summary>An entry of the archive as a loader reads it: where, how long, and in pieces of what size.</summary>
    private readonly record struct LoadedEntry(long Offset, long Length, int Piece);

    // The archive's entries from its AFS table (the bench's archives are AFS: count at 4, offset and size pairs from 8),
    // up to 400 of them in a seeded random order, each with a piece size drawn from 64 KiB-1 MiB: every path and run alike.
    private static LoadedEntry[] LoadedEntries(string solid)
    {
        using var handle = File.OpenHandle(solid);
        var head = new byte[8];
        RandomAccess.Read(handle, head, 0);
        int count = (int)Math.Min(System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(4)), 1 << 20);
        var table = new byte[8L * count];
        RandomAccess.Read(handle, table, 8);
        var random = new Random(47);
        return Enumerable.Range(0, count)
            .Select(i => (Offset: (long)System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i)),
                Length: (long)System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(table.AsSpan(8 * i + 4))))
            .Where(e => e.Length > 0).OrderBy(_ => random.Next()).Take(MostEntries)
            .Select(e => new LoadedEntry(e.Offset, e.Length, (64 << 10) << random.Next(5))).ToArray();
    }

    // 4 KiB-aligned, seeded: every path and every run reads the same places.
    private static long[] RandomOffsets(long length, int count)
    {
        var random = new Random(5);
        long slots = Math.Max(1, length / BenchOptions.RandomReadSize);
        return Enumerable.Range(0, count).Select(_ => random.NextInt64(slots) * BenchOptions.RandomReadSize).ToArray();
    }
}
