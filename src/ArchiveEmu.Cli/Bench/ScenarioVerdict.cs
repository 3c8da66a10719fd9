using System.Text.Json.Nodes;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// One scenario's answer for a newcomer: how fast emulation and a merged file read the whole archive against the
/// original (<c>solid</c>), whether merging helped beyond the run-to-run noise, and what the merge costs once.
/// </summary>
internal sealed record ScenarioVerdict(string Name, Samples Emulated, Samples Merged, double EmulatedRandom, double MergedRandom,
    MergeBenefit MergingHelps, double? BuildMergeMs)
{
    // The fresh-open paths: what a program opening the archive gets; the "-kept" rows are the mount host's best case.
    private const string EmulatedPath = "emulated";
    private const string MergedPath = "merged";
    private const string BuildMergePath = "build --merge";

    public static ScenarioVerdict Of(ScenarioResult s)
    {
        var emulated = s.Paths.Single(p => p.Name == EmulatedPath);
        var merged = s.Paths.Single(p => p.Name == MergedPath);
        var build = s.Builds.FirstOrDefault(b => b.Name == BuildMergePath);
        return new ScenarioVerdict(s.Scenario.Name, Samples.Of(emulated.WholeRatioToSolid), Samples.Of(merged.WholeRatioToSolid),
            Samples.MedianOf(emulated.RandomRatioToSolid), Samples.MedianOf(merged.RandomRatioToSolid),
            MergeBenefits.Decide(emulated.WholeRatioToSolid, merged.WholeRatioToSolid), build is null ? null : Samples.MedianOf(build.Ms));
    }

    public string Line() =>
        $"  {Name}: emulated reads at {Emulated.Median:F2}x the original's speed (runs {Emulated.Range()}), merged at {Merged.Median:F2}x ({Merged.Range()}), "
        + $"so merging helps: {MergingHelps.Words()}; 4K random: emulated {EmulatedRandom:F2}x, merged {MergedRandom:F2}x";

    public JsonObject ToJson() => new()
    {
        ["name"] = Name,
        ["emulated_ratio_to_solid"] = Emulated.Median,
        ["emulated_runs"] = new JsonObject { ["min"] = Emulated.Min, ["max"] = Emulated.Max },
        ["merged_ratio_to_solid"] = Merged.Median,
        ["merged_runs"] = new JsonObject { ["min"] = Merged.Min, ["max"] = Merged.Max },
        ["merging_helps"] = MergingHelps.Words(),
        ["emulated_random_ratio_to_solid"] = EmulatedRandom,
        ["merged_random_ratio_to_solid"] = MergedRandom,
        ["build_merge_ms"] = BuildMergeMs,
    };
}
