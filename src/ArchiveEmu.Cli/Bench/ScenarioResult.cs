namespace ArchiveEmu.Cli.Bench;

/// <summary>What one scenario measured: the archive, the read paths, the build paths and the LZ4 figures.</summary>
internal sealed record ScenarioResult(BenchScenario Scenario, long ArchiveBytes, int SourceFiles, bool Cold,
    IReadOnlyList<PathMeasurements> Paths, IReadOnlyList<BuildMeasurements> Builds, Lz4Figures Lz4, double Seconds)
{
    public PathMeasurements Solid => Paths.Single(p => p.Name == ReadPath.Solid);

    /// <summary>The device model's estimate of a path's whole-archive read, and its ratio to solid's estimate; null without a recorded trace.</summary>
    public (double Mbps, double Ratio)? Estimate(PathMeasurements path, DeviceModel device)
    {
        if (path.WholeTrace is null || Solid.WholeTrace is null)
            return null;
        double mbps = device.Mbps(path.WholeTrace, ArchiveBytes);
        return (mbps, mbps / device.Mbps(Solid.WholeTrace, ArchiveBytes));
    }
}
