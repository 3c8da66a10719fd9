using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Builds the version of an archive the mount serves, through the serving layer (merged bytes from the cache when
/// it holds them or the policy packs them now, else emulated), and logs one line per archive built (and its warning, if any). Without
/// <paramref name="storing"/> (a cache folder it cannot write) the cache is only read: nothing stored, no private copy.
/// With <paramref name="clones"/>, an emulated archive may be passed through as a copy-on-write clone (<see cref="EmulatedClone"/>).
/// </summary>
internal sealed class ArchiveBuilder(MergePolicy policy, MergeThresholds thresholds, Func<ChunkCompression> compression, bool storing, ILogger logger,
    bool clones = false)
{
    private readonly CloneSupport _cloneSupport = new();

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
        logger.LogInformation(LogDetail.Event, "built {Archive}: {Strategy}, {Entries} entries, {Size}, {Ms:0.0} ms",
            route.RelativePath, served.Reason, served.Summary!.Entries, Units.Bytes(served.File!.Length),
            (served.BuildTime + served.StoreTime).TotalMilliseconds);
        foreach (var warning in served.Warnings)
            logger.LogWarning("{Warning}", warning); // once per version: a slot builds once, and a reload keeps a build whose inputs did not change
        return new ServedFile(served.File, route.GamePath, modified, counters, PassthroughOf(served, game, route));
    }

    // What the kernel may read in the version's place (FUSE passthrough): a merged version's private copy, an emulated one's clone.
    private PassthroughFile? PassthroughOf(ServedArchive served, EmulatedGame game, ArchiveRoute route) => served.How switch
    {
        ServedAs.Merged when storing => new MergedCopy(game.Cache!.Folder),
        ServedAs.Emulated when clones && OperatingSystem.IsLinux() => new EmulatedClone(route.GamePath, _cloneSupport),
        _ => null,
    };
}
