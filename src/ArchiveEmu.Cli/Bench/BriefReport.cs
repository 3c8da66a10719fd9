namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// <c>bench --brief</c>: one line per read path across the scenarios (whole-archive ratio to solid with its range over
/// the runs, the 4 KiB random ratio and the random entries' ratio), one line of build times per scenario; no per-scenario tables.
/// </summary>
internal static class BriefReport
{
    public static void Write(TextWriter o, IReadOnlyList<ScenarioResult> scenarios)
    {
        if (scenarios.Count == 0)
            return;
        o.WriteLine();
        o.WriteLine("read paths, measured: whole archive / solid (range over the runs), 4K random / solid, random entries / solid, per scenario:");
        foreach (var name in scenarios[0].Paths.Select(p => p.Name))
            o.WriteLine(($"  {name,-18} " + string.Join(";  ", scenarios.Select(s => Ratios(s, s.Paths.Single(p => p.Name == name))))).TrimEnd());
        foreach (var s in scenarios)
            o.WriteLine($"  one-time build, {s.Scenario.Name}: " + string.Join(", ", s.Builds.Select(b => $"{b.Name} {Samples.MedianOf(b.Ms):F1} ms")));
    }

    private static string Ratios(ScenarioResult s, PathMeasurements p)
    {
        var whole = Samples.Of(p.WholeRatioToSolid);
        return $"{s.Scenario.Name} {whole.Median:F2}x ({whole.Range()}), 4K {Samples.MedianOf(p.RandomRatioToSolid):F2}x, "
            + $"entries {Samples.MedianOf(p.EntriesRatioToSolid):F2}x";
    }
}
