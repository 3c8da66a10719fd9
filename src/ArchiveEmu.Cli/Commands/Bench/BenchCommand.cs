using System.Diagnostics;
using System.Runtime.InteropServices;

namespace ArchiveEmu.Cli.Commands.Bench;

/// <summary>
/// <c>archiveemu bench</c>: generates the SOLID-article scenarios under a temp folder and measures, on this
/// machine, what emulation and the merged cache cost against reading the original SOLID file — warm or cold,
/// whole-archive and 4 KiB random reads, plus the build paths and LZ4 on texture-like data.
/// </summary>
internal sealed class BenchCommand : ICommand
{
    public string Name => "bench";
    public string Usage => "archiveemu bench [SCENARIO…|all] [--runs N] [--cold] [--drop-caches] [--random-reads N] [--block-size N] [--dir DIR] [--json FILE]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, ["runs", "dir", "json", "random-reads", "block-size", "scale-down"], ["cold", "drop-caches"]);
        var scenarios = ParseScenarios(cl.Positionals);
        var options = new BenchOptions(
            Runs: cl.Int("runs", 5, 1, 1000),
            Cold: cl.Flag("cold"),
            DropAllCaches: cl.Flag("drop-caches"),
            RandomReads: cl.Int("random-reads", 500, 1, 1_000_000),
            BlockSize: (int)Sizes.Parse(cl, "block-size", 1 << 20),
            ScaleDown: cl.Int("scale-down", 1, 1, 1 << 16)); // hidden: tests shrink every texture with it
        if (options.BlockSize is < 4096 or > 1 << 30)
            throw new UsageException("--block-size takes 4K to 1G");
        if (options.DropAllCaches && !options.Cold)
            throw new UsageException("--drop-caches goes with --cold");
        if (options.DropAllCaches && !PageCache.CanDropAll)
            throw new UnauthorizedAccessException("--drop-caches needs root on Linux (it writes /proc/sys/vm/drop_caches)");
        var json = cl.Value("json") is { } j ? Path.GetFullPath(j) : null;
        if (json is not null && !Directory.Exists(Path.GetDirectoryName(json)))
            throw new DirectoryNotFoundException($"--json {json}: its folder does not exist");

        var parent = Path.GetFullPath(cl.Value("dir") ?? Path.GetTempPath());
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
            report.WriteText(console.Out);
            if (json is not null)
                AtomicFile.Write(json, stream =>
                {
                    using var writer = new StreamWriter(stream, leaveOpen: true);
                    report.WriteJson(writer);
                });
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
        return names.Distinct().Select(n => BenchScenario.Find(n)
            ?? throw new UsageException($"unknown scenario '{n}' (known: {string.Join(", ", BenchScenario.All.Select(s => s.Name))}, all)")).ToList();
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
