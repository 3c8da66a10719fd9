using System.Text.Json.Nodes;

namespace ArchiveEmu.Cli.Bench;

/// <summary>Median, min and max of one figure over the runs.</summary>
internal sealed record Samples(double Median, double Min, double Max)
{
    /// <summary>As the JSON reports give it: median, min, max.</summary>
    public JsonObject ToJson() => new() { ["median"] = Median, ["min"] = Min, ["max"] = Max };

    public static Samples Of(IReadOnlyCollection<double> values)
    {
        if (values.Count == 0)
            return new Samples(0, 0, 0);
        var sorted = values.Order().ToArray();
        int n = sorted.Length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Samples(median, sorted[0], sorted[^1]);
    }

    public static double MedianOf(IReadOnlyCollection<double> values) => Of(values).Median;

    /// <summary>"0.93-1.05": the spread of per-run ratios as the tables and the verdict print it (a method, so the JSON keeps three fields).</summary>
    public string Range() => $"{Min:F2}-{Max:F2}";
}
