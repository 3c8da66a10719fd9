using System.Diagnostics;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// The layouts of <see cref="VirtualFileLookupBenchmarks"/> and <see cref="VirtualFileReadBenchmarks"/>, timed in pairs: a
/// batch of direct reads, then the same reads through the virtual file, round after round, and the figure is the median
/// (and quartiles) of the per-round differences. Why beside BenchmarkDotNet: on a machine shared with other work, load
/// that comes and goes over seconds falls on both halves of a round alike, so a pair's difference keeps the engine's cost
/// where two separately measured means (and even their minima) swing by more than that cost.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- pairedreads [--rounds N] [--parts]</c> (<c>--parts</c>: the file
/// source's call alone and the pool's handle alone, each against the direct reads)
/// </summary>
internal static class PairedReadTiming
{
    private const int ReadSize = 4096;
    private const int SegmentLength = 8192;
    private const int BackingSize = 16 << 20;
    private const int ReadsPerBatch = 1024;

    public static int Run(string[] args)
    {
        int rounds = args.SkipWhile(a => a != "--rounds").Skip(1).Select(int.Parse).FirstOrDefault(400);
        string path = Path.Combine(Path.GetTempPath(), $"archiveemu-paired-{Environment.ProcessId}.bin");
        var random = new Random(42);
        var backing = new byte[BackingSize];
        random.NextBytes(backing);
        File.WriteAllBytes(path, backing);
        try
        {
            Console.WriteLine($"{rounds} rounds of {ReadsPerBatch} reads a side; ns per read; engine - direct: median [quartiles], ratio of medians");
            foreach (int segments in new[] { 64, 16384 })
            {
                Report("in memory", segments, Measure(path, backing, segments, rounds, fileBacked: false));
                Report("file", segments, Measure(path, backing, segments, rounds, fileBacked: true));
                if (!args.Contains("--parts"))
                    continue;
                // Where a file-backed read's gap goes: the source's call alone (no lookup), the pool's handle alone (no engine code).
                Report("source", segments, Measure(path, backing, segments, rounds, fileBacked: true, Side.SourceAlone));
                Report("handle", segments, Measure(path, backing, segments, rounds, fileBacked: true, Side.PoolHandleAlone));
            }
            return 0;
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>What the engine side of a pair reads through: the virtual file, or (<c>--parts</c>) one part of its file path alone.</summary>
    private enum Side { Engine, SourceAlone, PoolHandleAlone }

    private static void EngineSide(Side side, VirtualFile file, long[] virtualOffsets, int[] sourceOffsets, byte[] buffer)
    {
        switch (side)
        {
            case Side.Engine: EngineReads(file, virtualOffsets, buffer); break;
            case Side.SourceAlone: SourceReads((FileSource)file.Segments[0].Source, sourceOffsets, buffer); break;
            default: DirectFileReads(((FileSource)file.Segments[0].Source).File.GetHandle(), sourceOffsets, buffer); break;
        }
    }

    private static (double[] Direct, double[] Engine) Measure(string path, byte[] backing, int segments, int rounds, bool fileBacked, Side side = Side.Engine)
    {
        var random = new Random(segments);
        var sources = new int[segments];
        var builder = new VirtualFileBuilder(new FileHandlePool(16));
        for (int s = 0; s < segments; s++)
        {
            sources[s] = random.Next(BackingSize - SegmentLength + 1);
            if (fileBacked)
                builder.AppendFile(path, sources[s], SegmentLength);
            else
                builder.AppendBytes(backing.AsMemory(sources[s], SegmentLength));
        }
        using var file = builder.Build();
        using SafeFileHandle handle = File.OpenHandle(path);
        var virtualOffsets = new long[ReadsPerBatch];
        var sourceOffsets = new int[ReadsPerBatch];
        for (int i = 0; i < ReadsPerBatch; i++)
        {
            int segment = random.Next(segments);
            int within = random.Next(SegmentLength - ReadSize + 1);
            virtualOffsets[i] = (long)segment * SegmentLength + within;
            sourceOffsets[i] = sources[segment] + within;
        }

        var buffer = new byte[ReadSize];
        var direct = new double[rounds];
        var engine = new double[rounds];
        for (int round = -rounds / 10; round < rounds; round++) // the first tenth warms up (and lets the JIT tier up)
        {
            // Odd rounds go engine first, so that neither side always follows the other into warm caches.
            bool engineFirst = (round & 1) != 0;
            double engineTime = 0, directTime;
            if (engineFirst)
                engineTime = Time(() => EngineSide(side, file, virtualOffsets, sourceOffsets, buffer));
            directTime = fileBacked
                ? Time(() => DirectFileReads(handle, sourceOffsets, buffer))
                : Time(() => DirectCopies(backing, sourceOffsets, buffer));
            if (!engineFirst)
                engineTime = Time(() => EngineSide(side, file, virtualOffsets, sourceOffsets, buffer));
            if (round < 0)
                continue;
            direct[round] = directTime;
            engine[round] = engineTime;
        }
        return (direct, engine);
    }

    /// <summary>Nanoseconds per read of one batch.</summary>
    private static double Time(Action batch)
    {
        long start = Stopwatch.GetTimestamp();
        batch();
        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / ReadsPerBatch;
    }

    private static void DirectCopies(byte[] backing, int[] offsets, byte[] buffer)
    {
        foreach (int offset in offsets)
            backing.AsSpan(offset, ReadSize).CopyTo(buffer);
    }

    private static void DirectFileReads(SafeFileHandle handle, int[] offsets, byte[] buffer)
    {
        foreach (int offset in offsets)
            RandomAccess.Read(handle, buffer, offset);
    }

    private static void SourceReads(FileSource source, int[] offsets, byte[] buffer)
    {
        foreach (int offset in offsets)
            source.ReadExactly(offset, buffer);
    }

    private static void EngineReads(VirtualFile file, long[] offsets, byte[] buffer)
    {
        foreach (long offset in offsets)
            file.Read(offset, buffer);
    }

    private static void Report(string what, int segments, (double[] Direct, double[] Engine) times)
    {
        var differences = times.Engine.Zip(times.Direct, (e, d) => e - d).Order().ToArray();
        double direct = Median(times.Direct.Order().ToArray()), engine = Median(times.Engine.Order().ToArray());
        Console.WriteLine($"{what,-10} {segments,6} segments: direct {direct,7:F1}, engine {engine,7:F1}; " +
                          $"difference {Median(differences),6:F1} [{Quantile(differences, 0.25):F1}, {Quantile(differences, 0.75):F1}], " +
                          $"ratio {engine / direct:F3}");
    }

    private static double Median(double[] sorted) => Quantile(sorted, 0.5);

    private static double Quantile(double[] sorted, double q) => sorted[(int)Math.Round(q * (sorted.Length - 1))];
}
