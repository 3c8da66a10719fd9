using System.Text.Json.Nodes;
using ArchiveEmu.Cli.Output;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// The few lines that end <c>bench</c>'s output (and the JSON's <c>verdict</c>): computed from the runs, never
/// written in advance, and saying whether they timed ArchiveEmu's own work (warm) or the disk too (cold).
/// </summary>
internal sealed class BenchVerdict(BenchOptions options, IReadOnlyList<ScenarioResult> scenarios)
{
    private readonly IReadOnlyList<ScenarioVerdict> _scenarios = scenarios.Select(ScenarioVerdict.Of).ToList();

    public IReadOnlyList<string> Lines()
    {
        var lines = new List<string> { Heading() };
        lines.AddRange(_scenarios.Select(s => s.Line()));
        var merges = _scenarios.Where(s => s.BuildMergeMs is not null).Select(s => $"{s.BuildMergeMs:F0} ms ({s.Name})");
        lines.Add($"  build --merge is paid once, when the mods change, not per read: {string.Join(", ", merges)}; "
            + "\"within noise\": merged's and emulated's ranges of runs overlap");
        return lines;
    }

    private string Heading() => options.Cold
        ? "verdict, cold (the files' pages dropped before every run, so reads reach the disk under --dir: its cost is included):"
        : $"verdict, warm (files in the page cache: this times ArchiveEmu's own work per byte, not the disk; {ColdHint} includes the disk):";

    private static string ColdHint => OperatingSystem.IsLinux() ? "--cold" : "--cold (Linux only)";

    public JsonObject ToJson() => new()
    {
        ["warm"] = !options.Cold,
        ["lines"] = JsonOutput.Strings(Lines()),
        ["scenarios"] = JsonOutput.Array(_scenarios, s => s.ToJson()),
    };
}
