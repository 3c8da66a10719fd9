using System.ComponentModel;
using System.Diagnostics;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// Puts a new program in the old one's place as the download installer does: written beside it under a hidden name, made
/// executable, started once (<c>--version</c>), then renamed over it in one step. A running <c>archiveemu run</c> keeps
/// the file it started from; a failure at any step removes the new copy and leaves the old program as it was.
/// </summary>
internal static class ProgramReplacement
{
    private static readonly TimeSpan StartLimit = TimeSpan.FromSeconds(30);

    /// <summary>Replaces <paramref name="target"/> with <paramref name="program"/>; returns what the new one's --version says.</summary>
    public static string Replace(string target, byte[] program)
    {
        var staged = Path.Combine(Path.GetDirectoryName(target)!, $".{Path.GetFileName(target)}.new.{Environment.ProcessId}");
        try
        {
            try
            {
                using (var file = new FileStream(staged, FileMode.CreateNew, FileAccess.Write))
                {
                    file.Write(program);
                    file.Flush(flushToDisk: true);
                }
                if (!OperatingSystem.IsWindows())
                    File.SetUnixFileMode(staged, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute
                        | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw new IOException($"cannot write the new program beside {target} ({e.Message}); it is unchanged");
            }
            var says = VersionOf(staged)
                ?? throw new IOException($"the downloaded program does not start here; {target} is unchanged");
            File.Move(staged, target, overwrite: true);
            return says;
        }
        finally
        {
            File.Delete(staged);
        }
    }

    /// <summary>The first line the program at <paramref name="path"/> prints for --version, or null when it does not start and say one.</summary>
    private static string? VersionOf(string path)
    {
        var start = new ProcessStartInfo(path, "--version") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        try
        {
            using var program = Process.Start(start);
            if (program is null)
                return null;
            var output = program.StandardOutput.ReadToEndAsync();
            _ = program.StandardError.ReadToEndAsync();
            if (!program.WaitForExit(StartLimit))
            {
                program.Kill();
                return null;
            }
            var line = output.Result.Split('\n')[0].Trim();
            return program.ExitCode == 0 && line.Length > 0 ? line : null;
        }
        catch (Win32Exception)
        {
            return null;
        }
    }
}
