using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Where a layout restore's time goes, per stage (blob read + hash, deserialise, dispose), beside a parse of the same
/// archive: <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- layoutstages afs awb pak tar zip img</c>.
/// Same data as <see cref="LayoutRestoreBenchmarks"/>; prints the fastest of 40 rounds per stage, since on a loaded
/// machine the fastest is the one least disturbed. A profile to find what to cut, not a figure to compare formats by.
/// </summary>
internal static class LayoutRestoreStages
{
    private const int Rounds = 40;

    public static int Run(string[] formats)
    {
        foreach (var format in formats)
        {
            var folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-stages-{format}-{Environment.ProcessId}");
            try
            {
                Measure(format, folder);
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }
        return 0;
    }

    private static void Measure(string format, string folder)
    {
        var route = LayoutRestoreFixture.Write(format, Path.Combine(folder, "game"), 65_536);
        var cache = new MergedFileCache(Path.Combine(folder, "cache"));
        var pool = new FileHandlePool(64);
        var key = RouteKey.For(route, ["mod"], verifyContent: false);
        using (var built = route.Build(pool))
            cache.Store(key, built, merge: false, ChunkCompression.None);
        var entry = cache.Find(key) ?? throw new InvalidOperationException("the layout was not stored");
        var packs = new PackFiles(cache.Folder);
        var fastest = Enumerable.Repeat(double.MaxValue, 5).ToArray();
        int blobBytes = 0;
        for (int round = 0; round < Rounds; round++)
        {
            var clock = Stopwatch.StartNew();
            using (route.Build(pool)) { }
            double parse = Lap(clock);
            var bytes = packs.ReadBlob(entry.Layout);
            double read = Lap(clock);
            var archive = ArchiveLayout.Deserialize(bytes, pool);
            double deserialise = Lap(clock);
            archive.Dispose();
            double dispose = Lap(clock);
            using (cache.TryOpenLayout(entry, pool)) { }
            double whole = Lap(clock);
            double[] now = [parse, read, deserialise, dispose, whole];
            for (int k = 0; k < now.Length; k++)
                fastest[k] = Math.Min(fastest[k], now[k]);
            blobBytes = bytes.Length;
        }
        Console.WriteLine($"{format}: layout {blobBytes:N0} B; fastest of {Rounds}, ms: parse {fastest[0]:F2}, restore {fastest[4]:F2} "
            + $"(read + hash {fastest[1]:F2}, deserialise {fastest[2]:F2}; dispose {fastest[3]:F2})");
    }

    private static double Lap(Stopwatch clock)
    {
        double ms = clock.Elapsed.TotalMilliseconds;
        clock.Restart();
        return ms;
    }
}
