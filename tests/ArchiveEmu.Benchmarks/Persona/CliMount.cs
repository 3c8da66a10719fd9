using System.Diagnostics;
using System.Text;

namespace ArchiveEmu.Benchmarks.Persona;

/// <summary><c>archiveemu mount</c> in the background: started, its mount point polled until listable, stopped with SIGTERM.</summary>
internal sealed class CliMount : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _log = new();

    private CliMount(Process process, string mountPoint)
    {
        _process = process;
        MountPoint = mountPoint;
    }

    public string MountPoint { get; }

    /// <summary>Milliseconds from the process's start until listing the mount point shows the game's files.</summary>
    public double ReadyMs { get; private set; }

    /// <summary>Starts the mount at an empty <paramref name="mountPoint"/> and returns once a listing of it is not empty.</summary>
    public static CliMount Start(string cli, IEnumerable<string> args, string mountPoint)
    {
        Directory.CreateDirectory(mountPoint);
        if (Directory.EnumerateFileSystemEntries(mountPoint).Any())
            throw new InvalidOperationException($"{mountPoint}: not empty (a mount left over?); unmount it first");
        var info = new ProcessStartInfo(cli) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in (string[])["mount", .. args, mountPoint])
            info.ArgumentList.Add(arg);
        var clock = Stopwatch.StartNew();
        var mount = new CliMount(Process.Start(info)!, mountPoint);
        mount._process.OutputDataReceived += (_, e) => mount.Log(e.Data);
        mount._process.ErrorDataReceived += (_, e) => mount.Log(e.Data);
        mount._process.BeginOutputReadLine();
        mount._process.BeginErrorReadLine();
        while (!Directory.EnumerateFileSystemEntries(mountPoint).Any()) // before the mount, the empty folder underneath
        {
            if (mount._process.HasExited || clock.Elapsed > TimeSpan.FromSeconds(60))
            {
                mount.Dispose();
                throw new InvalidOperationException($"archiveemu mount did not serve {mountPoint}:\n{mount._log}");
            }
            Thread.Sleep(1);
        }
        mount.ReadyMs = clock.Elapsed.TotalMilliseconds;
        return mount;
    }

    /// <summary>The process's peak resident memory so far (VmHWM in /proc/PID/status), in KiB.</summary>
    public long PeakKiB()
    {
        var line = File.ReadLines($"/proc/{_process.Id}/status").First(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));
        return long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
    }

    private void Log(string? line)
    {
        if (line is not null)
            lock (_log)
                _log.AppendLine(line);
    }

    /// <summary>SIGTERM (the mount unmounts and exits), then a check that the mount point is no longer mounted.</summary>
    public void Dispose()
    {
        if (!_process.HasExited)
            using (var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
                kill.WaitForExit();
        if (!_process.WaitForExit(TimeSpan.FromSeconds(20)))
            _process.Kill();
        _process.Dispose();
        if (File.ReadAllText("/proc/self/mountinfo").Contains($" {MountPoint} ", StringComparison.Ordinal))
            using (var umount = Process.Start("umount", ["-l", MountPoint]))
            {
                umount.WaitForExit();
                Console.Error.WriteLine($"  {MountPoint} was still mounted after the mount exited: unmounted with umount -l");
            }
    }
}
