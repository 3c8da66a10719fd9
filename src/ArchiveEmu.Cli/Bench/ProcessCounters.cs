using System.Globalization;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Linux process counters the bench reads around a run: read syscalls and bytes of the calling thread
/// (<c>/proc/thread-self/io</c>), and peak resident memory (<c>VmHWM</c>, reset through <c>clear_refs</c>).
/// Where they are not available every figure is null rather than invented.
/// </summary>
internal static class ProcessCounters
{
    /// <summary>Read syscalls and bytes of this thread so far (and the size of the snapshot's own read); null off Linux.</summary>
    public readonly record struct ThreadIo(long Syscalls, long Bytes, long OwnBytes = 0);

    // Reading the counters is itself a read (or two): measured once, then subtracted.
    private static readonly Lazy<ThreadIo> s_selfCost = new(() =>
    {
        var a = ReadThreadIo();
        var b = ReadThreadIo();
        return a is { } x && b is { } y ? new ThreadIo(y.Syscalls - x.Syscalls, 0) : default;
    });

    public static ThreadIo? ReadThreadIo()
    {
        try
        {
            long syscr = -1, rchar = -1;
            var text = File.ReadAllText("/proc/thread-self/io");
            foreach (var line in text.Split('\n'))
            {
                if (line.StartsWith("syscr:", StringComparison.Ordinal))
                    syscr = long.Parse(line.AsSpan(6).Trim(), CultureInfo.InvariantCulture);
                else if (line.StartsWith("rchar:", StringComparison.Ordinal))
                    rchar = long.Parse(line.AsSpan(6).Trim(), CultureInfo.InvariantCulture);
            }
            return syscr < 0 || rchar < 0 ? null : new ThreadIo(syscr, rchar, text.Length); // the counters predate this read
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    /// <summary>Read syscalls and bytes between two snapshots of the same thread, less the snapshots' own reads.</summary>
    public static ThreadIo? Between(ThreadIo? before, ThreadIo? after) =>
        before is { } b && after is { } a
            ? new ThreadIo(a.Syscalls - b.Syscalls - s_selfCost.Value.Syscalls, a.Bytes - b.Bytes - b.OwnBytes)
            : null;

    /// <summary>Warms the self-cost measurement (call once before measuring).</summary>
    public static void Calibrate() => _ = s_selfCost.Value;

    /// <summary>Resets the peak-RSS mark and returns the resident bytes now (the baseline of <see cref="PeakSince"/>).</summary>
    public static long? ResetPeak()
    {
        try
        {
            File.WriteAllText("/proc/self/clear_refs", "5");
            return StatusBytes("VmRSS:");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>How far the resident memory rose above <paramref name="baseline"/> at its peak since the reset.</summary>
    public static long? PeakSince(long? baseline) =>
        baseline is { } b && StatusBytes("VmHWM:") is { } peak ? Math.Max(0, peak - b) : null;

    private static long? StatusBytes(string field)
    {
        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
                return long.Parse(line.AsSpan(field.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
        }
        return null;
    }
}
