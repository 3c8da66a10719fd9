using System.Diagnostics;
using ArchiveEmu.Benchmarks.Persona;
using ArchiveEmu.TestSupport.Metaphor;

namespace ArchiveEmu.Benchmarks.Metaphor;

/// <summary>
/// Issue 50's benchmark at an assumed Metaphor: ReFantazio scale (docs/BENCHMARKS.md, "Metaphor scale"): one base.cpk of 100,000
/// entries and 30 Reloaded-II mods, 10 of them editing Metaphor Essentials' tables (<see cref="MetaphorScaleGame"/>), measured as
/// <c>p5r-scale</c> measures (<see cref="P5rScaleBenchmark.Measure"/>), with the same targets.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- metaphor-scale [--rounds N] [--dir DIR] [--cli PATH]
/// [--entries N] [--mods N] [--table-mods N] [--files N]</c>.
/// </summary>
internal static class MetaphorScaleBenchmark
{
    public static int Run(string[] args)
    {
        var scale = new MetaphorScaleGame.Scale(P5rScaleBenchmark.Number(args, "--entries", 100_000), P5rScaleBenchmark.Number(args, "--mods", 30),
            P5rScaleBenchmark.Number(args, "--table-mods", 10), P5rScaleBenchmark.Number(args, "--files", 20));
        string dir = P5rScaleBenchmark.Option(args, "--dir") ?? Path.Combine(Path.GetTempPath(), "archiveemu-metaphor-scale");
        string cli = P5rScaleBenchmark.Option(args, "--cli") ?? P5rScaleBenchmark.DefaultCli();
        if (!File.Exists(cli))
        {
            Console.Error.WriteLine($"metaphor-scale: {cli} not found; build it first: dotnet build src/ArchiveEmu.Cli -c Release");
            return 1;
        }
        var clock = Stopwatch.StartNew();
        var game = MetaphorScaleGame.Open(Path.Combine(dir, "data"), scale);
        Console.WriteLine($"game {game.Game}: {MetaphorScaleGame.Cpk} {game.Entries} entries; {game.Mods.Count} mods ({scale.TableMods} editing tables), "
            + $"{game.ModFileCount} mod files; {(game.Written ? "written" : "reused")} in {clock.Elapsed.TotalSeconds:F1} s");
        Console.WriteLine($"cli {cli}; {Environment.ProcessorCount} cores; load {File.ReadAllText("/proc/loadavg").Trim()}");
        var files = game.Mods.SelectMany(m => m.Files.Select(f => (P5rScaleBenchmark.Layout(f), Path.Combine(game.ModsFolder, m.Name, f)))).ToList();
        return P5rScaleBenchmark.Measure(new P5rScaleBenchmark.Measured(dir, cli, P5rScaleBenchmark.Number(args, "--rounds", 5), game.Game,
            [.. game.ModFolders], MetaphorScaleGame.Cpk, 1, files));
    }
}
