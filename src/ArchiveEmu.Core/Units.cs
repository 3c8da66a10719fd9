namespace ArchiveEmu;

/// <summary>
/// Human-readable sizes for reports and logs. Internal to Core, which lets the CLI and the host see its internals
/// (InternalsVisibleTo), so the wording is one piece of code without being part of Core's public API.
/// </summary>
internal static class Units
{
    public static string Bytes(long bytes) => bytes switch
    {
        >= 1L << 30 => $"{bytes / (double)(1L << 30):0.##} GiB",
        >= 1L << 20 => $"{bytes / (double)(1L << 20):0.##} MiB",
        >= 1L << 10 => $"{bytes / 1024.0:0.##} KiB",
        _ => $"{bytes} B",
    };
}
