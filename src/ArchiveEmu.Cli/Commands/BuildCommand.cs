using System.Diagnostics;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;

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

        var reports = new List<BuildReport.Archive>();
        foreach (var route in game.Plan.Archives)
            reports.Add(BuildOne(game, route, policy, thresholds, compression, console));
        var summary = new BuildReport(game, reports, routeMs, game.Server.Storage, policy);
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
        ChunkCompression compression, CliConsole console)
    {
        ProgressBar? progress = null; // drawn only while merged bytes are written
        ServedArchive served;
        try
        {
            served = game.Serve(route, new ServeRequest
            {
                Merge = policy,
                Thresholds = thresholds,
                Compression = compression,
                Describe = true,
                Progress = (done, total) => (progress ??= new ProgressBar(console, route.RelativePath)).Report(done, total),
            });
        }
        finally
        {
            progress?.Dispose();
        }
        var summary = served.Summary!;
        var decision = served.Decision!;
        string cacheState = served.Cache switch
        {
            CacheOutcome.Off => "off",
            CacheOutcome.Stored => "stored",
            _ => "hit",
        };
        return new BuildReport.Archive(route, summary.OriginalSize, summary.Size, summary.Replaced, summary.Added, summary.Deleted,
            summary.BytesFromOriginal, summary.BytesFromLooseFiles, summary.BytesGenerated, served.BuildTime.TotalMilliseconds,
            served.Layout == LayoutOrigin.Cache, decision, cacheState, decision.Merge ? served.Merged : null, served.StoreTime.TotalMilliseconds);
    }
}
