using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;

namespace ArchiveEmu.Cli.Bench;

/// <summary>Time of one way of producing the modded archive, run by run.</summary>
internal sealed record BuildMeasurements(string Name, string Means)
{
    public List<double> Ms { get; } = new();
    public List<double> RatioToRepack { get; } = new();

    /// <summary>Stored bytes / archive bytes, for the merges.</summary>
    public double? StoredRatio { get; set; }
}

/// <summary>
/// The build paths, interleaved per run: <c>repack</c> (write the whole modded archive to a new file and
/// flush it, as a user without ArchiveEmu would), <c>build</c> (resolve routes, parse the original, lay out
/// the segments), and <c>build --merge</c> raw and LZ4 (build, then store the merged bytes in a fresh cache,
/// flushed). Each starts from parsing; with <c>--cold</c> the inputs' pages are dropped first.
/// </summary>
internal sealed class BuildRunner(ScenarioFiles files, BenchOptions options, Action<string> status, CancellationToken cancel)
{
    public IReadOnlyList<BuildMeasurements> Run()
    {
        var repack = new BuildMeasurements("repack", "write the whole archive to a new file, flushed");
        var build = new BuildMeasurements("build", "routes + parse the original + segment map");
        var raw = new BuildMeasurements("build --merge", "build + merged cache, raw, flushed");
        var lz4 = new BuildMeasurements("build --merge lz4", "build + merged cache, LZ4, flushed");
        var scratch = Path.Combine(files.Folder, "build-scratch");
        for (int run = 0; run < options.Runs; run++)
        {
            cancel.ThrowIfCancellationRequested();
            status($"{files.Scenario.Name}: run {run + 1}/{options.Runs}, build paths");
            Directory.CreateDirectory(scratch);
            repack.Ms.Add(Timed(() => Repack(Path.Combine(scratch, "repacked.afs"))));
            build.Ms.Add(Timed(() => Build(out _, out _).Dispose()));
            raw.Ms.Add(Timed(() => raw.StoredRatio = Merge(Path.Combine(scratch, "cache-raw"), ChunkCompression.None)));
            lz4.Ms.Add(Timed(() => lz4.StoredRatio = Merge(Path.Combine(scratch, "cache-lz4"), ChunkCompression.Lz4)));
            foreach (var m in new[] { repack, build, raw, lz4 })
                m.RatioToRepack.Add(repack.Ms[^1] / m.Ms[^1]); // > 1: faster than a repack
            Directory.Delete(scratch, recursive: true);
        }
        return [repack, build, raw, lz4];
    }

    private double Timed(Action action)
    {
        if (options.Cold)
            PageCache.Drop(files.AllFiles());
        long start = Stopwatch.GetTimestamp();
        action();
        return Stopwatch.GetElapsedTime(start).TotalMilliseconds;
    }

    private Core.Formats.EmulatedArchive Build(out EmulatedGame game, out ArchiveRoute route)
    {
        game = files.OpenGame(null);
        route = game.Plan.FindArchive(files.ArchivePath)!;
        return game.Build(route);
    }

    private void Repack(string output)
    {
        using var archive = Build(out _, out _);
        using var stream = new FileStream(output, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1);
        var buffer = new byte[1 << 20];
        for (long at = 0; at < archive.File.Length;)
        {
            cancel.ThrowIfCancellationRequested();
            int n = archive.File.Read(at, buffer);
            stream.Write(buffer, 0, n);
            at += n;
        }
        stream.Flush(flushToDisk: true);
    }

    private double Merge(string cacheFolder, ChunkCompression compression)
    {
        var game = files.OpenGame(cacheFolder); // routing timed too, as in Build
        var merged = game.Serve(game.Plan.FindArchive(files.ArchivePath)!, new ServeRequest { Merge = MergePolicy.Always, Compression = compression }).Merged!;
        return (double)merged.Chunks.Length / Math.Max(1, merged.Length);
    }
}
