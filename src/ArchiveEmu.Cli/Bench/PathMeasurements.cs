namespace ArchiveEmu.Cli.Bench;

/// <summary>Everything measured for one read path in one scenario, run by run.</summary>
internal sealed class PathMeasurements(ReadPath path)
{
    public ReadPath Path { get; } = path;
    public string Name => Path.Name;

    public List<double> WholeMbps { get; } = new();
    public List<double> WholeRatioToSolid { get; } = new();
    public List<double> RandomMbps { get; } = new();
    public List<double> RandomRatioToSolid { get; } = new();
    public List<double> EntriesMbps { get; } = new();
    public List<double> EntriesRatioToSolid { get; } = new();
    public List<double> OpenMs { get; } = new();

    /// <summary>Files opened by one whole-archive read (the same every run).</summary>
    public long Opens { get; set; }

    /// <summary>Read syscalls and bytes one whole-archive read made, counted by the kernel (null off Linux).</summary>
    public ProcessCounters.ThreadIo? WholeIo { get; set; }

    /// <summary>The largest rise of resident memory during any run of this path.</summary>
    public long? PeakRssDelta { get; set; }

    /// <summary>The filesystem requests of the first whole-archive read and of the first random-read run.</summary>
    public ReadTrace? WholeTrace { get; set; }
    public ReadTrace? RandomTrace { get; set; }

    /// <summary>Content hash of every run's whole read and random reads (checked against solid's).</summary>
    public ulong WholeHash { get; set; }
    public ulong RandomHash { get; set; }
    public ulong EntriesHash { get; set; }

    public void NotePeak(long? delta)
    {
        if (delta is { } d)
            PeakRssDelta = Math.Max(PeakRssDelta ?? 0, d);
    }
}
