using System.CommandLine;
using System.Diagnostics;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu build</c>: resolves every route and builds every targeted archive, reporting per archive
/// what changed, the conflicts, the sizes, where the bytes come from and how long it took. With a cache
/// (the default) each archive's layout is stored so the next start skips parsing; with <c>--merge</c>,
/// archives the policy picks are also packed into the merged file cache.
/// </summary>
internal sealed class BuildCommand : ICommand
{
    private readonly GameArguments _game = new(serving: ServingArguments.ForGame(verifyContent: true,
        merge: CliOptions.Word("--merge", "Also pack archives into the merged file cache: auto (bare --merge) picks small ones; without it, never",
            PolicyWords.MergePolicies, bare: MergePolicy.Auto.Word()),
        compress: CliOptions.Word("--compress",
            "How merged archives are stored: auto (the default) measures the cache device against LZ4 and stores LZ4 only where it reads faster",
            PolicyWords.Compressions)));
    private readonly Option<long?> _maxArchiveSize = Sizes.Option("--max-archive-size", "With auto, merge archives up to this size, such as 32M (default: 32M)");
    private readonly Option<long?> _maxInjectedSize = Sizes.Option("--max-injected-size", "With auto, merge archives whose injected files are all up to this size (default: 1M)");
    private readonly Option<bool> _json = new("--json") { Description = "Write the report as JSON on stdout" };
    private readonly Option<long?> _cacheMaxSize = CacheCap.Option();

    public string Name => "build";
    public string Usage => $"archiveemu build --game DIR (--mod DIR [--mod DIR…] | --reloaded | --reloaded-dir PATH [--mod DIR…]) [--merge [{string.Join('|', PolicyWords.MergePolicies)}]] [--cache DIR | --no-cache] "
        + $"[--compress {string.Join('|', PolicyWords.Compressions)}] [--verify-content] [--language LANG] [--max-archive-size N] [--max-injected-size N] [--cache-max-size N] [--json]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "Build every archive the mods target and report what changed, the conflicts and the cost"));
        _game.Serving.AddCommandsOwnTo(command);
        foreach (var option in new Option[] { _maxArchiveSize, _maxInjectedSize, _cacheMaxSize, _json })
            command.Options.Add(option);
        command.Validate(result => ParsePolicy(result.GetValue(_game.Serving.Merge!)) != MergePolicy.Never && result.GetValue(_game.Serving.NoCache!)
            ? "--merge needs the cache; drop --no-cache" : null);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var thresholds = new MergeThresholds(
            parse.GetValue(_maxArchiveSize) ?? MergeThresholds.Default.MaxArchiveBytes,
            parse.GetValue(_maxInjectedSize) ?? MergeThresholds.Default.MaxInjectedFileBytes);

        var clock = Stopwatch.StartNew();
        var warnings = new List<string>();
        GameRequest? request = null;
        var game = _game.Open(parse, console, warnings, storePlan: true, requested: r => request = r);
        var policy = ParsePolicy(request!.Serving.Merge); // build's own --merge: a profile's is for mount and run
        if (game.Cache is { } cache)
            GameArguments.RequireWritableCache(cache, merging: policy != MergePolicy.Never);
        double routeMs = clock.Elapsed.TotalMilliseconds;
        foreach (var o in game.Plan.Overrides) // what a mount would serve: a FIFO or a device in a mod is one line naming it, as an entry's is
            Core.VirtualFiles.FileIdentity.Of(o.SourcePath);

        var reports = new List<BuildReport.Archive>();
        var failures = new List<BuildReport.Failure>();
        using var building = new ProgressBar(console, "", "building", "archives"); // a first build of many archives takes a while
        foreach (var (route, built) in game.Plan.Archives.Select((route, i) => (route, i)))
        {
            building.Label = route.RelativePath;
            building.Report(built, game.Plan.Archives.Count);
            try
            {
                reports.Add(BuildOne(game, route, policy, thresholds, console)); // its warning reaches warnings through game.Warn
            }
            catch (Exception e) when (e is ArchiveFormatException or InvalidDataException) // one archive: the others are still built and reported
            {
                failures.Add(new BuildReport.Failure(route, UsageErrors.OneLine(e.Message), HintFor(route)));
            }
        }
        building.Report(game.Plan.Archives.Count, game.Plan.Archives.Count);
        building.Dispose(); // the line blank before anything else is written
        if (game.Cache is { } written)
            CacheCap.Apply(written, parse.GetValue(_cacheMaxSize) ?? MergedFileCache.DefaultMaxBytes, console);
        // Decided once per build, for the cache folder, when the first archive is merged (auto probes the device and LZ4).
        var summary = new BuildReport(game, reports, routeMs, game.Server.Storage, policy, game.CompressionIfDecided, failures, warnings)
        {
            Reloaded = request.Reloaded,
        };
        if (parse.GetValue(_json))
            summary.WriteJson(console.Out);
        else
            summary.WriteText(console.Out);
        if (failures.Count == 0)
            return 0;
        console.Error.WriteLine($"archiveemu build: {failures.Count} of {failures.Count + reports.Count} archives failed "
            + $"({string.Join(", ", failures.Select(f => f.Route.RelativePath))}); {string.Join("; ", failures.Select(f => f.Hint).Distinct())}");
        return 1;
    }

    /// <summary>Whose mistake a failed archive is: the original's when it cannot be read alone, else the mods'.</summary>
    private static string HintFor(ArchiveRoute route)
    {
        try
        {
            route.ReadOriginal();
            return BuildReport.Failure.ModHint;
        }
        catch (Exception e) when (e is ArchiveFormatException or InvalidDataException)
        {
            return BuildReport.Failure.DamagedHint;
        }
    }

    /// <summary>The policy of a checked <c>--merge</c> value; without <c>--merge</c>, build emulates (and still caches layouts).</summary>
    private static MergePolicy ParsePolicy(string? value) => PolicyWords.MergePolicyOf(value) ?? MergePolicy.Never;

    private static BuildReport.Archive BuildOne(EmulatedGame game, ArchiveRoute route, MergePolicy policy, MergeThresholds thresholds, CliConsole console)
    {
        ProgressBar? progress = null; // drawn only while merged bytes are written
        ServedArchive served;
        try
        {
            served = game.Serve(route, new ServeRequest
            {
                Merge = policy,
                Thresholds = thresholds,
                DecideCompression = () => game.Compression?.Compression ?? ChunkCompression.None,
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
            CacheOutcome.Full => "full",
            _ => "hit",
        };
        return new BuildReport.Archive(route, summary.Entries, summary.OriginalSize, summary.Size, summary.Replaced, summary.Added, summary.Deleted,
            summary.BytesFromOriginal, summary.BytesFromLooseFiles, summary.BytesGenerated, served.BuildTime.TotalMilliseconds,
            served.Layout == LayoutOrigin.Cache, decision, cacheState, decision.Merge ? served.Merged : null, served.StoreTime.TotalMilliseconds);
    }
}
