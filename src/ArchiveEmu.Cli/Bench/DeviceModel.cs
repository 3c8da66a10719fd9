namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// An estimate, not a measurement: what a recorded <see cref="ReadTrace"/> would cost on the three devices of
/// the published SOLID read-performance measurement (docs/DESIGN.md, "Why these thresholds"): sequential throughput plus a positioning cost per
/// piece. Throughputs are the article's single 64 MB reads; the per-piece costs are fitted to its emulated
/// rows (HDD: 512×128K at 0.28×, 64×1M at 0.71×; SATA: 512×128K at 0.90×; NVMe showed no cost).
/// </summary>
internal sealed record DeviceModel(string Name, double BytesPerSecond, double SecondsPerPiece)
{
    public static IReadOnlyList<DeviceModel> Article { get; } =
    [
        new("hdd", 106e6, 3.2e-3),
        new("sata", 498e6, 29e-6),
        new("nvme", 3466e6, 0),
    ];

    /// <summary>Estimated seconds to serve the trace on this device, one request after another.</summary>
    public double Seconds(ReadTrace trace) => trace.Pieces * SecondsPerPiece + trace.Bytes / BytesPerSecond;

    /// <summary>Estimated MB/s (10^6 bytes) of delivering <paramref name="deliveredBytes"/> through the trace.</summary>
    public double Mbps(ReadTrace trace, long deliveredBytes)
    {
        double seconds = Seconds(trace);
        return seconds <= 0 ? 0 : deliveredBytes / seconds / 1e6;
    }
}
