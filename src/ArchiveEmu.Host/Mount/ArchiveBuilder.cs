using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Builds the version of an archive the mount serves, through the serving layer (merged bytes from the cache when
/// it holds them or the policy packs them now, else emulated), and logs one line per archive built (and its warning, if any). Without
/// <paramref name="storing"/> (a cache folder it cannot write) the cache is only read: nothing stored, no private copy.
/// </summary>
internal sealed class ArchiveBuilder(MergePolicy policy, MergeThresholds thresholds, Func<ChunkCompression> compression, bool storing, ILogger logger)
{
    public ServedFile Build(EmulatedGame game, ArchiveRoute route, DateTime modified, ReadCounters counters)
    {
        var served = game.Serve(route, new ServeRequest
        {
            Merge = game.Cache is null || !storing ? null : policy,
            Thresholds = thresholds,
            DecideCompression = compression,
            OpenFile = true,
            Describe = true,
        });
        logger.LogInformation("built {Archive}: {Strategy}, {Entries} entries, {Size}, {Ms:0.0} ms",
            route.RelativePath, served.Reason, served.Summary!.Entries, Units.Bytes(served.File!.Length),
            (served.BuildTime + served.StoreTime).TotalMilliseconds);
        if (served.Warning is { } warning)
            logger.LogWarning("{Warning}", warning); // once per version: a slot builds once, and a reload keeps a build whose inputs did not change
        // A merged version is one file's bytes, so the kernel may read a private copy of it (FUSE passthrough).
        return new ServedFile(served.File, route.GamePath, modified, counters, served.How == ServedAs.Merged && storing ? game.Cache!.Folder : null);
    }
}
