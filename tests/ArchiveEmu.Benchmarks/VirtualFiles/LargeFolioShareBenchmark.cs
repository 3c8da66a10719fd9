using System.Diagnostics;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// How much of a cold streaming pass through a virtual file ends in large folios, and what that buys a warm pass. A
/// harness, not a BenchmarkDotNet class: each run drops the source's pages, reads the virtual file through once in
/// 1 MiB reads (the bring-in and its background threads racing the kernel's own read-ahead, which is why this is
/// measured here and not asserted by a test), then reads the page cache's view of every slice (root: /proc/kpageflags)
/// and times a warm pass. A plain file read sequentially is the control.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- folios [--runs N]</c>
/// </summary>
internal static class LargeFolioShareBenchmark
{
    private const int MiB = 1 << 20;

    public static int Run(string[] args)
    {
        int runs = args.SkipWhile(a => a != "--runs").Skip(1).Select(int.Parse).FirstOrDefault(10);
        if (PageCacheProbe.WhyFoliosAreHidden() is { } why)
        {
            Console.Error.WriteLine($"folios benchmark: cannot see folios ({why})");
            return 1;
        }
        using var dir = new TempDirectory("folio-bench");
        var bytes = TestData.Random(3, 16 * MiB);
        string original = dir.Write("original.bin", bytes), control = dir.Write("control.bin", bytes);
        // As in LargeFolioReadTests: gapped slices none aligned to a folio, and 256 KiB slices between 64 KiB gaps.
        (long Offset, long Length)[] gapped = [(4096, 3 * MiB), (4 * MiB + 8192, 2 * MiB + 4096), (7 * MiB + 100, 4 * MiB), (12 * MiB + 5000, 3 * MiB)];
        var small = Enumerable.Range(0, 36).Select(k => (Offset: 4096L + k * (320L << 10), Length: 256L << 10)).ToArray();

        Console.WriteLine($"runs {runs}; share of each slice's pages in large folios after one cold pass (min over slices / mean), warm pass MB/s");
        Console.WriteLine("| case | min share: median (worst) | mean share: median (worst) | warm MB/s, median |");
        Console.WriteLine("| --- | --- | --- | --- |");
        Report("gapped slices (4, 2–4 MiB)", Runs(runs, original, gapped));
        Report("256 KiB slices, 64 KiB gaps (36)", Runs(runs, original, small));
        Report("control: the plain file, 1 MiB reads", Runs(runs, control, [(0, bytes.Length)], plain: true));
        return 0;
    }

    private static List<(double Min, double Mean, double WarmMBps)> Runs(int runs, string path, (long Offset, long Length)[] slices, bool plain = false)
    {
        var results = new List<(double, double, double)>();
        for (int run = 0; run < runs; run++)
        {
            var builder = new VirtualFileBuilder(new FileHandlePool(4));
            foreach (var (offset, length) in slices)
                builder.AppendFile(path, offset, length);
            using var file = builder.Build();
            PageCacheProbe.Drop(path);
            if (plain)
                ReadPlain(path);
            else
                ReadThrough(file);
            var shares = slices.Select(s => PageCacheProbe.ShareInLargeFolios(path, s.Offset, s.Length)).ToArray();
            var clock = Stopwatch.StartNew();
            long read = plain ? ReadPlain(path) : ReadThrough(file);
            results.Add((shares.Min(), shares.Average(), read / clock.Elapsed.TotalSeconds / 1e6));
        }
        return results;
    }

    private static long ReadThrough(VirtualFile file)
    {
        var buffer = new byte[MiB];
        long at = 0;
        while (at < file.Length)
            at += file.Read(at, buffer.AsSpan(0, (int)Math.Min(MiB, file.Length - at)));
        return at;
    }

    private static long ReadPlain(string path)
    {
        using var handle = File.OpenHandle(path);
        var buffer = new byte[MiB];
        long at = 0, length = RandomAccess.GetLength(handle);
        while (at < length)
            at += RandomAccess.Read(handle, buffer, at);
        return at;
    }

    private static void Report(string name, List<(double Min, double Mean, double WarmMBps)> results)
    {
        static double Median(IEnumerable<double> values) => values.Order().ElementAt(values.Count() / 2);
        Console.WriteLine($"| {name} | {Median(results.Select(r => r.Min)):P0} ({results.Min(r => r.Min):P0}) " +
            $"| {Median(results.Select(r => r.Mean)):P0} ({results.Min(r => r.Mean):P0}) | {Median(results.Select(r => r.WarmMBps)):N0} |");
    }
}
