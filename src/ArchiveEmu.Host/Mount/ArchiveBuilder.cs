using System.Diagnostics;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Builds the version of an archive the mount serves: merged bytes from the cache when it holds them,
/// otherwise the emulated archive (from the cache's stored layout or parsed), packed into the cache first
/// when the merge policy says so. Logs one line per archive built.
/// </summary>
internal sealed class ArchiveBuilder(MergePolicy policy, MergeThresholds thresholds, FileHandlePool pool, ILogger logger)
{
    private StorageKind? _storage;

    public ServedFile Build(EmulatedGame game, ArchiveRoute route, DateTime modified, ReadCounters counters)
    {
        var clock = Stopwatch.StartNew();
        var (file, strategy, entries) = game.Cache is null ? Emulate(game, route, "emulated (no cache)") : FromCache(game, route);
        logger.LogInformation("built {Archive}: {Strategy}, {Entries} entries, {Size}, {Ms:0.0} ms",
            route.RelativePath, strategy, entries, Units.Bytes(file.Length), clock.Elapsed.TotalMilliseconds);
        bool merged = strategy.StartsWith("merged", StringComparison.Ordinal);
        return new ServedFile(file, route.GamePath, modified, counters, merged ? game.Cache!.Folder : null);
    }

    private static (VirtualFile, string, int) Emulate(EmulatedGame game, ArchiveRoute route, string strategy)
    {
        var archive = game.Build(route);
        return (archive.File, strategy, Live(archive));
    }

    private (VirtualFile, string, int) FromCache(EmulatedGame game, ArchiveRoute route)
    {
        var cache = game.Cache!;
        var key = game.KeyOf(route);
        var entry = cache.Find(key);
        var archive = entry is null ? null : cache.TryOpenLayout(entry, pool);
        string source = archive is null ? "parsed" : "layout from cache";
        archive ??= game.Build(route);

        if (entry?.Merged is null)
        {
            var decision = MergeDecider.Decide(policy, thresholds, archive, _storage ??= StorageKind.Of(game.Plan.GameFolder));
            if (!decision.Merge)
            {
                if (entry is null)
                    cache.Store(key, archive, merge: false, ChunkCompression.Lz4); // the layout, so the next start skips parsing
                return (archive.File, $"emulated, {source} ({decision.Reason})", Live(archive));
            }
            entry = cache.Store(key, archive, merge: true, ChunkCompression.Lz4);
            source = $"packed now ({decision.Reason})";
        }
        else
            source = "from cache";

        int entries = Live(archive);
        archive.Dispose(); // merged bytes need no handles on the inputs
        var merged = cache.TryOpenMerged(entry, () => game.Build(route).File);
        return merged is null ? Emulate(game, route, "emulated (merged entry damaged)") : (merged, $"merged, {source}", entries);
    }

    private static int Live(EmulatedArchive archive) => archive.Entries.Count(e => e.State != EntryState.Deleted);
}
