using System.Diagnostics;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu build</c>: resolves every route and builds every targeted archive, reporting per archive
/// what changed, the conflicts, the sizes, where the bytes come from and how long it took. With a cache
/// (the default) each archive's layout is stored so the next start skips parsing; with <c>--merge</c>,
/// archives the policy picks are also packed into the merged file cache.
/// </summary>
internal sealed class BuildCommand : ICommand
{
    private static readonly Dictionary<string, (string, string[])> OptionalValues = new()
    {
        ["merge"] = ("auto", ["auto", "always", "never"]),
    };

    public string Name => "build";
    public string Usage => "archiveemu build --game DIR --mod DIR [--mod DIR…] [--merge [auto|always|never]] [--cache DIR | --no-cache] "
        + "[--compress lz4|none] [--verify-content] [--max-archive-size N] [--max-injected-size N] [--json]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, [.. GameArguments.ValueOptions, "compress", "max-archive-size", "max-injected-size"],
            [.. GameArguments.FlagOptions, "json"], OptionalValues);
        if (cl.Positionals.Count > 0)
            throw new UsageException($"unexpected argument '{cl.Positionals[0]}'");
        var policy = ParsePolicy(cl.Value("merge"));
        var compression = cl.Value("compress") switch
        {
            null or "lz4" => ChunkCompression.Lz4,
            "none" => ChunkCompression.None,
            var other => throw new UsageException($"--compress takes lz4 or none, not '{other}'"),
        };
        var thresholds = new MergeThresholds(
            Sizes.Parse(cl, "max-archive-size", MergeThresholds.Default.MaxArchiveBytes),
            Sizes.Parse(cl, "max-injected-size", MergeThresholds.Default.MaxInjectedFileBytes));
        if (policy != MergePolicy.Never && cl.Flag("no-cache"))
            throw new UsageException("--merge needs the cache; drop --no-cache");

        var clock = Stopwatch.StartNew();
        var game = GameArguments.Resolve(cl, console);
        double routeMs = clock.Elapsed.TotalMilliseconds;
        var storage = StorageKind.Of(game.Plan.GameFolder);

        var reports = new List<BuildReport.Archive>();
        foreach (var route in game.Plan.Archives)
            reports.Add(BuildOne(game, route, policy, thresholds, compression, storage, console));
        var summary = new BuildReport(game, reports, routeMs, storage, policy);
        if (cl.Flag("json"))
            summary.WriteJson(console.Out);
        else
            summary.WriteText(console.Out);
        return 0;
    }

    private static MergePolicy ParsePolicy(string? value) => value switch
    {
        null or "never" => MergePolicy.Never, // without --merge, build emulates (and still caches layouts)
        "auto" => MergePolicy.Auto,
        "always" => MergePolicy.Always,
        _ => throw new UsageException($"--merge takes auto, always or never, not '{value}'"),
    };

    private static BuildReport.Archive BuildOne(EmulatedGame game, ArchiveRoute route, MergePolicy policy, MergeThresholds thresholds,
        ChunkCompression compression, StorageKind storage, CliConsole console)
    {
        var clock = Stopwatch.StartNew();
        var cache = game.Cache;
        var key = cache is null ? null : game.KeyOf(route);
        var entry = key is null ? null : cache!.Find(key);
        var archive = entry is null ? null : cache!.TryOpenLayout(entry);
        bool layoutFromCache = archive is not null;
        archive ??= game.Build(route);
        using (archive)
        {
            double buildMs = clock.Elapsed.TotalMilliseconds;
            var decision = MergeDecider.Decide(policy, thresholds, archive, storage);
            string cacheState = "off";
            double mergeMs = 0;
            if (cache is not null && key is not null)
            {
                bool mergedAlready = entry?.Merged is not null && layoutFromCache;
                if (layoutFromCache && (!decision.Merge || mergedAlready))
                    cacheState = "hit";
                else
                {
                    var mergeClock = Stopwatch.StartNew();
                    using var progress = decision.Merge ? new ProgressBar(console, route.RelativePath) : null;
                    entry = cache.Store(key, archive, decision.Merge, compression, progress is null ? null : progress.Report);
                    mergeMs = mergeClock.Elapsed.TotalMilliseconds;
                    cacheState = "stored";
                }
            }
            return new BuildReport.Archive(route, archive.Original.Identity.Length, archive.File.Length,
                archive.Count(EntryState.Replaced), archive.Count(EntryState.Added), archive.Count(EntryState.Deleted),
                archive.BytesFromOriginal, archive.BytesFromLooseFiles, archive.BytesGenerated, buildMs, layoutFromCache,
                decision, cacheState, decision.Merge ? entry?.Merged : null, mergeMs);
        }
    }
}
