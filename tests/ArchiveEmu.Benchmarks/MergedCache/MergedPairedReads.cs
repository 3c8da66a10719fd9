using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Benchmarks.MergedCache;

/// <summary>
/// Where a warm 4 KiB random read of a merged archive spends the time `bench` shows over `solid`'s: the same offsets
/// read, in rounds, from a plain copy of the archive (`solid`), straight from the pack at the merged extent's offsets
/// (`pack`: the same syscall on the cache's file; with a handle opened for the batch; after a merged open's work), and
/// through the merged <see cref="VirtualFile"/> (kept open; opened before each batch, as `bench` does before each run;
/// the second batch of such an open). Each side's median nanoseconds per read, and the median per-round difference to
/// `solid`. <c>--state read|brought-in</c> drops both files' pages first and brings them back as `bench`'s passes do.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- mergedreads [--rounds N] [--state written|read|brought-in]</c>
/// </summary>
internal static class MergedPairedReads
{
    private const int ReadSize = 4096;
    private const int ReadsPerBatch = 500; // as `bench`'s --random-reads default

    public static int Run(string[] args)
    {
        int rounds = args.SkipWhile(a => a != "--rounds").Skip(1).Select(int.Parse).FirstOrDefault(400);
        using var fixture = new MergedAfsFixture("mergedreads");
        var emulator = fixture.Emulator;
        string route = fixture.Route;
        var extent = fixture.Extent;
        // --state read: both files dropped from the page cache, then read once sequentially in 1 MiB reads (the kernel's
        // read-ahead chooses the folios); --state brought-in: the pack's extent brought in as the merged source does
        // (PMD folios), solid read sequentially; default: as written
        string state = args.SkipWhile(a => a != "--state").Skip(1).FirstOrDefault("written");
        if (state != "written")
        {
            fixture.DropPages();
            ReadSequentially(fixture.SolidPath, 0, new FileInfo(fixture.SolidPath).Length);
            if (state == "read")
                ReadSequentially(fixture.PackPath, extent.Chunks.Offset, extent.Chunks.Length);
            else
            {
                using var h = File.OpenHandle(fixture.PackPath);
                PageCacheReads.BringIn(h, extent.Chunks.Offset, extent.Chunks.Length, RandomAccess.GetLength(h));
            }
        }
        using var solid = File.OpenHandle(fixture.SolidPath);
        using var pack = File.OpenHandle(fixture.PackPath);
        using var kept = emulator.Open(route);

        var random = new Random(5);
        long slots = kept.Length / ReadSize;
        var offsets = Enumerable.Range(0, ReadsPerBatch).Select(_ => random.NextInt64(slots) * ReadSize).ToArray();
        var buffer = new byte[ReadSize];
        var sides = new (string Name, Func<double> Batch)[]
        {
            ("solid", () => Time(() => { foreach (long o in offsets) RandomAccess.Read(solid, buffer, o); })),
            ("pack", () => Time(() => { foreach (long o in offsets) RandomAccess.Read(pack, buffer, extent.Chunks.Offset + o); })),
            ("pack, fresh handle", () =>
            {
                using var fresh = File.OpenHandle(fixture.PackPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, FileOptions.SequentialScan);
                return Time(() => { foreach (long o in offsets) RandomAccess.Read(fresh, buffer, extent.Chunks.Offset + o); });
            }),
            ("pack, after an open", () =>
            {
                emulator.Open(route).Dispose(); // the open's work, then the same preads as `pack`
                return Time(() => { foreach (long o in offsets) RandomAccess.Read(pack, buffer, extent.Chunks.Offset + o); });
            }),
            ("merged, fresh, 2nd batch", () =>
            {
                using var file = emulator.Open(route);
                foreach (long o in offsets) file.Read(o, buffer);
                return Time(() => { foreach (long o in offsets) file.Read(o, buffer); });
            }),
            ("merged, kept open", () => Time(() => { foreach (long o in offsets) kept.Read(o, buffer); })),
            ("merged, fresh open", () =>
            {
                using var file = emulator.Open(route); // not timed, as in `bench`
                return Time(() => { foreach (long o in offsets) file.Read(o, buffer); });
            }),
        };
        var times = sides.Select(_ => new double[rounds]).ToArray();
        for (int round = -rounds / 10; round < rounds; round++)
        {
            for (int k = 0; k < sides.Length; k++)
            {
                int s = (k + round + rounds) % sides.Length; // the order rotates, so no side always follows another
                double ns = sides[s].Batch();
                if (round >= 0)
                    times[s][round] = ns;
            }
        }
        Console.WriteLine($"{rounds} rounds of {ReadsPerBatch} warm 4 KiB random reads a side (512 x 128 KiB AFS, merged raw; pages {state}); ns per read");
        for (int s = 0; s < sides.Length; s++)
        {
            var differences = times[s].Zip(times[0], (a, b) => a - b).Order().ToArray();
            Console.WriteLine($"  {sides[s].Name,-26} median {Median(times[s].Order().ToArray()),7:F0}  minus solid {Median(differences),6:F0} " +
                              $"[{differences[differences.Length / 4]:F0}, {differences[differences.Length * 3 / 4]:F0}]");
        }
        return 0;
    }

    private static void ReadSequentially(string path, long offset, long length)
    {
        using var h = File.OpenHandle(path);
        var block = new byte[1 << 20];
        for (long at = 0; at < length; at += block.Length)
            RandomAccess.Read(h, block.AsSpan(0, (int)Math.Min(block.Length, length - at)), offset + at);
    }

    private static double Time(Action batch)
    {
        long start = Stopwatch.GetTimestamp();
        batch();
        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / ReadsPerBatch;
    }

    private static double Median(double[] sorted) => sorted[sorted.Length / 2];
}
