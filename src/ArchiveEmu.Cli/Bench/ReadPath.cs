using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// One way of getting a scenario's emulated bytes, read by one thread (docs/DESIGN.md, "Bench: one reader per path").
/// <see cref="Owned"/> is what the path keeps open across runs, disposed when the scenario ends.
/// </summary>
internal sealed record ReadPath(string Name, Func<BenchFile> Open, double? CompressionRatio = null, IDisposable? Owned = null)
{
    public const string Solid = "solid";

    /// <summary>
    /// solid, emulated, merged, merged-lz4 over <paramref name="files"/>; and the "-kept" paths,
    /// whose virtual file is opened once and kept across runs as the mount host keeps it (handles stay open,
    /// merged chunks stay hash-checked).
    /// </summary>
    public static IReadOnlyList<ReadPath> For(ScenarioFiles files)
    {
        var emulated = Emulated(files);
        var (merged, _) = Merged(files, files.RawCacheFolder, "merged");
        var (mergedLz4, ratio) = Merged(files, files.Lz4CacheFolder, "merged-lz4");
        var emulatedKept = new KeptBenchFile.Shared(Emulated(files));
        var mergedKept = new KeptBenchFile.Shared(Merged(files, files.RawCacheFolder, "merged").Open);
        return
        [
            new(Solid, () => new SolidBenchFile(files.SolidPath)),
            new("emulated", emulated),
            new("emulated-kept", emulatedKept.Open, Owned: emulatedKept),
            new("merged", merged),
            new("merged-kept", mergedKept.Open, Owned: mergedKept),
            new("merged-lz4", mergedLz4, CompressionRatio: ratio),
        ];
    }

    // Each emulated path has its own handle pool, sized like the shared one, so its opens can be counted.
    private static Func<BenchFile> Emulated(ScenarioFiles files)
    {
        var pool = new FileHandlePool(FileHandlePool.Shared.Capacity);
        var game = files.OpenGame(cacheFolder: null, pool);
        return () => new VirtualBenchFile(game.OpenFile(files.ArchivePath), pool, merged: null);
    }

    private static (Func<BenchFile> Open, double Ratio) Merged(ScenarioFiles files, string cacheFolder, string name)
    {
        var game = files.OpenGame(cacheFolder);
        var cache = game.Cache!;
        var route = game.Plan.FindArchive(files.ArchivePath)!;
        var extent = game.Server.FindMerged(route)
            ?? throw new InvalidDataException($"{cacheFolder}: the {name} cache holds no merged entry for {files.ArchivePath}");
        var table = cache.ReadChunkTable(extent); // once: the trace model needs it, the timed open should not pay for it
        string pack = cache.PathOf(extent.Chunks);
        bool trusted = cache.IsVerified(extent); // as each open will find it: nothing writes the cache while the reads run
        return (() =>
        {
            var file = game.OpenFile(files.ArchivePath);
            if (file.Files.Any())
            {
                file.Dispose();
                throw new InvalidDataException($"{cacheFolder}: {files.ArchivePath} was served by emulation, not from the merged cache");
            }
            return new VirtualBenchFile(file, pool: null, new MergedReadModel(pack, extent.Chunks.Offset, table, trusted));
        }, (double)extent.Chunks.Length / Math.Max(1, extent.Length));
    }
}
