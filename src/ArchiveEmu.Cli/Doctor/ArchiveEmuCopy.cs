using System.ComponentModel;
using System.Diagnostics;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>Another archiveemu on this machine (the one a Steam launch option names), asked its version.</summary>
internal static class ArchiveEmuCopy
{
    /// <summary>A copy that hangs must not hang doctor; its answer is one line, at once.</summary>
    private static readonly TimeSpan Answer = TimeSpan.FromSeconds(3);

    /// <summary>The first line <c>PROGRAM --version</c> prints, or why there is none.</summary>
    public static string VersionOf(string program)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add("--version");
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new Win32Exception("not started");
        }
        catch (Win32Exception e)
        {
            return $"it cannot be started: {e.Message}";
        }
        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync();
            _ = process.StandardError.ReadToEndAsync(); // read, so a full pipe cannot stop it
            if (!process.WaitForExit(Answer) || !output.Wait(Answer))
            {
                process.Kill(entireProcessTree: true);
                return $"its --version gave no answer in {Answer.TotalSeconds:0} s";
            }
            var first = output.Result.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Length > 0);
            return process.ExitCode == 0 && first is not null ? first : $"its --version exited with {process.ExitCode}";
        }
    }
}
