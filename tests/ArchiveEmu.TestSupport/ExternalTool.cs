using System.Diagnostics;

namespace ArchiveEmu.TestSupport;

/// <summary>The result of running a program nobody here wrote (unzip, 7z, tar, python3).</summary>
public sealed record ToolResult(int ExitCode, string StdOut, string StdErr)
{
    public override string ToString() => $"exit {ExitCode}\nstdout:\n{StdOut}\nstderr:\n{StdErr}";
}

/// <summary>
/// Runs independent checkers. A missing tool fails the test: .ci/run installs them. On Windows (the win-x64 check
/// under Wine, .ci/windows-check) these Linux programs do not exist: a test that needs one is reported as skipped,
/// with the tool named, never as passed.
/// </summary>
public static class ExternalTool
{
    public static ToolResult Run(string fileName, params string[] args) => RunIn(null, fileName, args);

    public static ToolResult RunIn(string? workingDirectory, string fileName, params string[] args)
    {
        if (OperatingSystem.IsWindows())
            Assert.Ignore($"LinuxOnly: needs the Linux program {fileName}, not available on Windows");
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);

        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {fileName}");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} {string.Join(' ', args)} did not finish in 2 minutes");
        }
        return new ToolResult(process.ExitCode, stdout.Result, stderr.Result);
    }

    /// <summary>Runs a Python 3 script given as text (standard library only).</summary>
    public static ToolResult Python(string script, params string[] args) =>
        Run("python3", new[] { "-c", script }.Concat(args).ToArray());
}
