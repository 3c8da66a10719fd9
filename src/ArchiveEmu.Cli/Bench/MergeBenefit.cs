namespace ArchiveEmu.Cli.Bench;

/// <summary>Whether reading the merged file beat emulation in one scenario, told apart from run-to-run noise.</summary>
internal enum MergeBenefit
{
    Yes,
    No,
    WithinNoise,
    OneRun,
}

internal static class MergeBenefits
{
    /// <summary>
    /// Compares the per-run ratios to solid: when merged's lowest-to-highest range and emulated's overlap, the
    /// difference is within the noise of this machine; one run has no range, so it decides nothing.
    /// </summary>
    public static MergeBenefit Decide(IReadOnlyCollection<double> emulatedRuns, IReadOnlyCollection<double> mergedRuns)
    {
        if (emulatedRuns.Count < 2 || mergedRuns.Count < 2)
            return MergeBenefit.OneRun;
        var emulated = Samples.Of(emulatedRuns.Select(AsPrinted).ToList());
        var merged = Samples.Of(mergedRuns.Select(AsPrinted).ToList());
        if (merged.Min <= emulated.Max && emulated.Min <= merged.Max)
            return MergeBenefit.WithinNoise;
        return merged.Min > emulated.Max ? MergeBenefit.Yes : MergeBenefit.No;
    }

    // Compared as printed (two decimals): ranges a reader sees touching, 0.03-0.13 and 0.13-1.63, are within noise.
    private static double AsPrinted(double ratio) => Math.Round(ratio, 2);

    /// <summary>The words the verdict prints and the JSON holds.</summary>
    public static string Words(this MergeBenefit benefit) => benefit switch
    {
        MergeBenefit.Yes => "yes",
        MergeBenefit.No => "no",
        MergeBenefit.WithinNoise => "within noise",
        _ => "cannot tell from one run",
    };
}
