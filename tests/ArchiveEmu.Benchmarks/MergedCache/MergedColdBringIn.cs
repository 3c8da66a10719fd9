using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Benchmarks.MergedCache;

/// <summary>
/// What the merged source's cold bring-in (PMD folios, and a background thread keeping 16 MiB ahead) buys: per run, the
/// pages of both files dropped before each pass, one whole read in 1 MiB calls of `solid`, of `merged` as it ships, and
/// of `merged` with the bring-in off (the kernel's read-ahead alone, as for `solid`), in rotating order; the median of
/// the per-run ratios to `solid`. <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- coldmerged [--runs N]</c>
/// (Linux; the 64 MiB archive of <see cref="MergedAfsFixture"/>).
/// </summary>
internal static class MergedColdBringIn
{
    public static int Run(string[] args)
    {
        int runs = args.SkipWhile(a => a != "--runs").Skip(1).Select(int.Parse).FirstOrDefault(15);
        using var fixture = new MergedAfsFixture("coldmerged");
        var block = new byte[1 << 20];
        // Two caches over the same folder that differ only in their streaming policy: the merged file each opens is the same.
        var shipped = new MergedFileCache(fixture.Emulator.Cache!.Folder);
        var bringInOff = new MergedFileCache(fixture.Emulator.Cache.Folder) { Streaming = PageCacheStreaming.ForMergedPacks with { BringsIn = false } };
        var sides = new (string Name, Func<double> Pass)[]
        {
            ("solid", () => Time(() => ReadWhole(fixture.SolidPath, block))),
            ("merged", () => Time(() => ReadMerged(shipped, block))),
            ("merged, bring-in off", () => Time(() => ReadMerged(bringInOff, block))),
        };
        foreach (var side in sides)
        {
            fixture.DropPages();
            side.Pass(); // untimed: the JIT tiers up, the cache's index is read once
        }
        var seconds = sides.Select(_ => new double[runs]).ToArray();
        for (int run = 0; run < runs; run++)
        {
            for (int k = 0; k < sides.Length; k++)
            {
                int s = (k + run) % sides.Length;
                fixture.DropPages();
                seconds[s][run] = sides[s].Pass();
            }
        }
        Console.WriteLine($"{runs} cold whole reads a side (512 x 128 KiB AFS, merged raw, 1 MiB read calls); ratio to solid's speed in the same run");
        for (int s = 0; s < sides.Length; s++)
        {
            var ratios = seconds[0].Zip(seconds[s], (solid, side) => solid / side).Order().ToArray();
            double mbps = fixture.Extent.Length / seconds[s].Order().ElementAt(runs / 2) / 1e6;
            Console.WriteLine($"  {sides[s].Name,-22} median {mbps,7:F0} MB/s  x solid {ratios[runs / 2]:F2} [{ratios[runs / 4]:F2}, {ratios[runs * 3 / 4]:F2}]");
        }
        return 0;
    }

    private static void ReadWhole(string path, byte[] block)
    {
        using var handle = File.OpenHandle(path);
        long length = RandomAccess.GetLength(handle);
        for (long at = 0; at < length; at += block.Length)
            RandomAccess.Read(handle, block, at);
    }

    private static void ReadMerged(MergedFileCache cache, byte[] block)
    {
        var entry = cache.Entries().Single(e => e.Merged is not null);
        using var file = cache.TryOpenMerged(entry, () => throw new InvalidDataException($"{entry.Route}: merged copy is damaged"))
            ?? throw new InvalidDataException($"{entry.Route}: merged copy did not open");
        for (long at = 0; at < file.Length; at += block.Length)
            file.Read(at, block);
    }

    /// <summary>Seconds one pass takes, the open included (as for solid's; for the merged sides, the cache's open of the merged copy).</summary>
    private static double Time(Action pass)
    {
        long start = Stopwatch.GetTimestamp();
        pass();
        return Stopwatch.GetElapsedTime(start).TotalSeconds;
    }
}
