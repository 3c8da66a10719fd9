using System.Diagnostics;

namespace ArchiveEmu.Benchmarks.Persona;

/// <summary>
/// The Release-built <c>archiveemu</c> run as its own process, timed from start to exit, with its peak resident memory:
/// GNU time's <c>%M</c>, the <c>ru_maxrss</c> that <c>wait4</c> returns for the finished process (the same figure as its
/// VmHWM at exit). The mount, which runs until stopped, is read from <c>/proc/PID/status</c> instead (<see cref="CliMount"/>).
/// </summary>
internal sealed record CliRun(double Milliseconds, long PeakKiB, int ExitCode, string StdOut, string StdErr)
{
    private const string GnuTime = "/usr/bin/time";

    public static CliRun Start(string cli, IEnumerable<string> args)
    {
        if (!File.Exists(GnuTime))
            throw new InvalidOperationException($"{GnuTime} (GNU time) not found: it reports the measured process's peak memory (apt-get install time)");
        string peakFile = Path.GetTempFileName();
        try
        {
            var info = new ProcessStartInfo(GnuTime) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var arg in (string[])["-f", "%M", "-o", peakFile, cli, .. args])
                info.ArgumentList.Add(arg);
            var clock = Stopwatch.StartNew();
            using var process = Process.Start(info)!;
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            process.WaitForExit();
            double ms = clock.Elapsed.TotalMilliseconds;
            long peak = long.Parse(File.ReadAllText(peakFile).Trim().Split('\n')[^1], System.Globalization.CultureInfo.InvariantCulture);
            return new CliRun(ms, peak, process.ExitCode, stdout.Result, stderr.Result);
        }
        finally
        {
            File.Delete(peakFile);
        }
    }
}
