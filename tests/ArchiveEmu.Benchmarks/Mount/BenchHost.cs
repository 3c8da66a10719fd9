using System.Diagnostics;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>The host serving a benchmark's game at a mount point, as a child process; stopped with SIGTERM.</summary>
internal sealed class BenchHost : IDisposable
{
    private readonly Process _process;

    private BenchHost(Process process, string mountPoint)
    {
        _process = process;
        MountPoint = mountPoint;
    }

    public string MountPoint { get; }

    /// <summary>The host's process id (its /proc/PID/io says what it read from the disk).</summary>
    public int ProcessId => _process.Id;

    public string Mounted(string relative) => Path.Combine(MountPoint, relative);

    /// <summary>Starts ArchiveEmu.Host.dll with <paramref name="hostArgs"/> (which name the mount point) and waits until it is mounted.</summary>
    public static BenchHost Start(string mountPoint, IEnumerable<string> hostArgs)
    {
        Directory.CreateDirectory(mountPoint);
        var info = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true };
        foreach (var arg in (string[])["exec", Path.Combine(AppContext.BaseDirectory, "ArchiveEmu.Host.dll"), .. hostArgs, $"--ArchiveEmu:MountPoint={mountPoint}"])
            info.ArgumentList.Add(arg);
        var process = Process.Start(info)!;
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) Console.WriteLine($"  host: {e.Data}"); };
        process.BeginOutputReadLine();
        var host = new BenchHost(process, mountPoint);
        var clock = Stopwatch.StartNew();
        while (!File.ReadAllText("/proc/self/mountinfo").Contains($" {mountPoint} ", StringComparison.Ordinal))
        {
            if (process.HasExited || clock.Elapsed > TimeSpan.FromSeconds(30))
            {
                host.Dispose();
                throw new InvalidOperationException($"the host did not mount {mountPoint}");
            }
            Thread.Sleep(50);
        }
        return host;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
            using (var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
                kill.WaitForExit();
        if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
            _process.Kill();
        _process.Dispose();
    }
}
