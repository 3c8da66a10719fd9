using System.CommandLine;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// <c>--cache-max-size SIZE</c> on build, mount and run: when the cache's packs take more, the cache's own gc removes the least
/// recently used entries until they fit (never one a live mount serves). The default suits a Steam Deck's small disk.
/// </summary>
internal static class CacheCap
{
    public static Option<long?> Option() => Sizes.Option("--cache-max-size",
        $"Keep the merged file cache under this size, removing the least recently used entries, such as 2G (default: {Units.Bytes(MergedFileCache.DefaultMaxBytes)})");

    /// <summary>Runs the capped gc when the packs take more than <paramref name="maxBytes"/>, saying on stderr what it removed.</summary>
    public static void Apply(MergedFileCache cache, long maxBytes, CliConsole console)
    {
        try
        {
            if (cache.KeepUnder(maxBytes) is { } gc && gc.Expired + gc.OverCap > 0)
                console.Error.WriteLine($"archiveemu: the cache took more than {Units.Bytes(maxBytes)}: {Summary(gc)}");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) // what was built is served all the same
        {
            console.Error.WriteLine($"archiveemu: warning: could not keep the cache under {Units.Bytes(maxBytes)} ({e.Message})");
        }
    }

    /// <summary>What a gc removed and kept, in one line.</summary>
    public static string Summary(CollectResult gc) =>
        $"removed {gc.OverCap} least recently used entries over the size cap and {gc.Expired} unused or damaged, kept {gc.Kept}; packs {Units.Bytes(gc.BytesBefore)} -> {Units.Bytes(gc.BytesAfter)}";
}
