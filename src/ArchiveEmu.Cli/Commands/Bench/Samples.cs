using System.Text.Json.Serialization;

namespace ArchiveEmu.Cli.Commands.Bench;

/// <summary>Median, min and max of one figure over the runs.</summary>
internal sealed record Samples(
    [property: JsonPropertyName("median")] double Median,
    [property: JsonPropertyName("min")] double Min,
    [property: JsonPropertyName("max")] double Max)
{
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
}
