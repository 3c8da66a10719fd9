using System.Diagnostics;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary><c>bench</c> stopped by SIGTERM (a CI timeout, <c>kill</c>) removes its generated data, as Ctrl+C does.</summary>
public sealed class BenchInterruptTests
{
    [Test]
    public void Sigterm_MidRun_RemovesTheGeneratedData_AndExits130()
    {
        if (OperatingSystem.IsWindows())
            Assert.Ignore("POSIX signals");
        using var dir = new TempDirectory("bench-term");
        var start = ArchiveEmuProgram.StartInfo("bench", "--scale-down", "64", "--runs", "1000", "--random-reads", "20", "--dir", dir.Path);
        using var bench = Process.Start(start)!;
        var stderr = bench.StandardError.ReadToEndAsync();
        var stdout = bench.StandardOutput.ReadToEndAsync();

        // Wait for the scenario data to exist (the bench is then in its runs), then ask it to stop.
        var clock = Stopwatch.StartNew();
        while (!Directory.EnumerateFiles(dir.Path, "*", SearchOption.AllDirectories).Any() && clock.Elapsed < TimeSpan.FromSeconds(60) && !bench.HasExited)
            Thread.Sleep(50);
        Assert.That(bench.HasExited, Is.False, () => "the bench ended before it could be interrupted: " + stderr.Result); // lazy: Result waits for exit
        Thread.Sleep(500);
        var kill = ExternalTool.Run("kill", "-TERM", bench.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.That(kill.ExitCode, Is.Zero, kill.ToString());

        Assert.That(bench.WaitForExit(TimeSpan.FromSeconds(30)), Is.True, "stopped within 30 s");
        Assert.That(bench.ExitCode, Is.EqualTo(130), () => stderr.Result + stdout.Result);
        Assert.That(stderr.Result, Does.Contain("interrupted; generated data removed"));
        Assert.That(Directory.EnumerateFileSystemEntries(dir.Path), Is.Empty, "nothing left under --dir");
    }
}
