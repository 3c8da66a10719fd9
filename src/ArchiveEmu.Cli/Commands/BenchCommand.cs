using System.CommandLine;
using System.Diagnostics;
using System.Runtime.InteropServices;
using ArchiveEmu.Cli.Bench;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu bench</c>: generates the SOLID-article scenarios under a temp folder and measures, on this
/// machine, what emulation and the merged cache cost against reading the original SOLID file — warm or cold,
/// whole-archive and 4 KiB random reads, plus the build paths and LZ4 on texture-like data.
/// </summary>
internal sealed class BenchCommand : ICommand
{
    private readonly Argument<string[]> _scenarios = new("SCENARIO")
    {
        Description = $"Scenarios to run: {string.Join(", ", BenchScenario.All.Select(s => s.Name))} or all (default: {string.Join(", ", BenchScenario.Default.Select(s => s.Name))})",
        HelpName = "SCENARIO",
        Arity = ArgumentArity.ZeroOrMore,
    };
    private readonly Option<int> _runs = CliOptions.WholeNumber("--runs", 5, 1, 1000, "Timed runs per read path");
    private readonly Option<bool> _cold = new("--cold") { Description = "Drop the involved files' pages before every run" };
    private readonly Option<bool> _dropCaches = new("--drop-caches") { Description = "With --cold, drop the whole machine's caches too (root only)" };
    private readonly Option<int> _randomReads = CliOptions.WholeNumber("--random-reads", 500, 1, 1_000_000, "4 KiB random reads per run");
    private readonly Option<long?> _blockSize = Sizes.Option("--block-size", "Bytes per read call of the whole-archive read (default: 1M)", min: 4096, max: 1 << 30);
    private readonly Option<string> _dir = new("--dir") { Description = "Where to generate the scenarios' data (default: the temp folder)", HelpName = "DIR" };
    private readonly Option<string> _json = new("--json") { Description = "Also write the results as JSON to FILE", HelpName = "FILE" };
    private readonly Option<bool> _explain = new("--explain") { Description = "Also print what every column and path name means" };
    private readonly Option<bool> _brief = new("--brief") { Description = "One line per read path instead of the tables per scenario" };
    private readonly Option<string> _plot = CliOptions.FileEndingIn("--plot", ".svg", "Also draw the ratios to solid as an SVG chart in FILE.svg");
    private readonly Option<int> _scaleDown = CliOptions.WholeNumber("--scale-down", 1, 1, 1 << 16, "Divide every texture's size (tests use it to stay fast)");

    public string Name => "bench";
    public string Usage => "archiveemu bench [SCENARIO…|all] [--runs N] [--cold] [--drop-caches] [--random-reads N] [--block-size N] [--dir DIR] [--json FILE] [--explain] [--brief] [--plot FILE.svg]";

    public Command Define(CliConsole console)
    {
        _scenarios.CompletionSources.Add([.. BenchScenario.All.Select(s => s.Name), "all"]);
        _scenarios.Validators.Add(result =>
        {
            if (result.Tokens.Select(t => t.Value).FirstOrDefault(n => n != "all" && BenchScenario.Find(n) is null) is { } unknown)
                result.AddError($"unknown scenario '{unknown}' (known: {string.Join(", ", BenchScenario.All.Select(s => s.Name))}, all)");
        });
        _scaleDown.Hidden = true; // tests shrink every texture with it
        var command = new Command(Name, "Measure what emulation and the merged cache cost against reading the original files, on this machine")
        {
            _scenarios, _runs, _cold, _dropCaches, _randomReads, _blockSize, _dir, _json, _explain, _brief, _plot, _scaleDown,
        };
        command.Validate(result => result.GetValue(_dropCaches) && !result.GetValue(_cold) ? "--drop-caches goes with --cold" : null);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var scenarios = ParseScenarios(parse.GetValue(_scenarios) ?? []);
        var options = new BenchOptions(
            Runs: parse.GetValue(_runs),
            Cold: parse.GetValue(_cold),
            DropAllCaches: parse.GetValue(_dropCaches),
            RandomReads: parse.GetValue(_randomReads),
            BlockSize: (int)(parse.GetValue(_blockSize) ?? 1 << 20),
            ScaleDown: parse.GetValue(_scaleDown));
        if (options.DropAllCaches && !PageCache.CanDropAll)
            throw new UnauthorizedAccessException("--drop-caches needs root on Linux (it writes /proc/sys/vm/drop_caches)");
        var json = parse.GetValue(_json) is { } j ? Path.GetFullPath(j) : null;
        if (json is not null && !Directory.Exists(Path.GetDirectoryName(json)))
            throw new DirectoryNotFoundException($"--json {json}: its folder does not exist");
        var plot = parse.GetValue(_plot) is { } svg ? Path.GetFullPath(svg) : null;
        if (plot is not null && Path.GetDirectoryName(plot) is var folder && !Directory.Exists(folder))
            throw new DirectoryNotFoundException($"--plot {plot}: its folder {folder} does not exist");

        var parent = Path.GetFullPath(parse.GetValue(_dir) ?? Path.GetTempPath());
        if (!Directory.Exists(parent))
            throw new DirectoryNotFoundException($"--dir {parent}: no such folder");
        var work = Directory.CreateDirectory(Path.Combine(parent, $"archiveemu-bench-{Environment.ProcessId}-{Guid.NewGuid():N}")).FullName;

        using var cancel = new CancellationTokenSource();
        // Ctrl+C and SIGTERM (a CI job's timeout, `kill`) alike: finish the current read, then remove the generated data.
        Action<PosixSignalContext> onSignal = context =>
        {
            context.Cancel = true;
            cancel.Cancel();
        };
        using var onInterrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, onSignal);
        using var onTerminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, onSignal);
        try
        {
            var machine = MachineInfo.Collect(work);
            var results = new List<ScenarioResult>();
            using (var status = new BenchStatus(console))
            {
                ProcessCounters.Calibrate();
                foreach (var scenario in scenarios)
                    results.Add(RunScenario(scenario.ScaledDown(options.ScaleDown), work, options, status.Show, cancel.Token));
            }
            var report = new BenchReport(machine, options, results);
            report.WriteText(console.Out, brief: parse.GetValue(_brief), explain: parse.GetValue(_explain));
            if (json is not null)
                AtomicFile.Write(json, stream =>
                {
                    using var writer = new StreamWriter(stream, leaveOpen: true);
                    report.WriteJson(writer);
                });
            if (plot is not null)
                AtomicFile.Write(plot, new BenchPlot(machine, options, results).Write);
            return 0;
        }
        catch (OperationCanceledException) when (cancel.IsCancellationRequested)
        {
            console.Error.WriteLine("archiveemu bench: interrupted; generated data removed");
            return 130;
        }
        finally
        {
            if (Directory.Exists(work))
                Directory.Delete(work, recursive: true);
        }
    }

    private static IReadOnlyList<BenchScenario> ParseScenarios(IReadOnlyList<string> names)
    {
        if (names.Count == 0)
            return BenchScenario.Default;
        if (names.Contains("all"))
            return BenchScenario.All;
        return names.Distinct().Select(n => BenchScenario.Find(n)!).ToList(); // names were checked while parsing
    }

    private static ScenarioResult RunScenario(BenchScenario scenario, string work, BenchOptions options, Action<string> status, CancellationToken cancel)
    {
        var clock = Stopwatch.StartNew();
        using var files = ScenarioFiles.Generate(scenario, work, text => status($"{scenario.Name}: {text}"));
        cancel.ThrowIfCancellationRequested();
        var readPaths = ReadPath.For(files);
        IReadOnlyList<PathMeasurements> paths;
        try
        {
            paths = new ReadRunner(files, options, status, cancel).Run(readPaths);
        }
        finally
        {
            foreach (var path in readPaths)
                path.Owned?.Dispose();
        }
        var builds = new BuildRunner(files, options, status, cancel).Run();
        var lz4 = Lz4Figures.Measure(files, options.Runs);
        return new ScenarioResult(scenario, files.Length, files.SourceFiles, options.Cold, paths, builds, lz4, clock.Elapsed.TotalSeconds);
    }
}
