using ArchiveEmu.Cli.Profiles;

namespace ArchiveEmu.Cli.Running;

/// <summary>
/// The log of one <c>archiveemu run</c>: a file named with the time in <c>$XDG_STATE_HOME/archiveemu/logs</c> (else
/// <c>~/.local/state/archiveemu/logs</c>), the last <see cref="Kept"/> kept. Under Steam nobody sees the terminal: the CLI's
/// own lines and the host's (through <c>ArchiveEmu:LogFile</c>) land here.
/// </summary>
internal sealed class RunLog
{
    public const int Kept = 10;
    private const string Prefix = "run-";

    private RunLog(string? path) => Path = path;

    public static string Folder => System.IO.Path.Combine(UserFolders.State, "logs");

    /// <summary>The file, or null when it could not be made (said once on stderr; the run goes on without it).</summary>
    public string? Path { get; }

    /// <summary>Where a message sends the player: the file, or why there is none.</summary>
    public string Where => Path is null ? "no log file could be written" : $"the log is {Path}";

    /// <summary>A new log for this run, its first line the command line; older logs past the last <see cref="Kept"/> are removed.</summary>
    public static RunLog Start(string commandLine, TextWriter error)
    {
        var now = DateTime.Now;
        var path = System.IO.Path.Combine(Folder, $"{Prefix}{now:yyyy-MM-dd_HH-mm-ss.fff}_{Environment.ProcessId}.log");
        try
        {
            Directory.CreateDirectory(Folder);
            File.WriteAllText(path, "");
            foreach (var old in Directory.GetFiles(Folder, $"{Prefix}*.log").Order(StringComparer.Ordinal).SkipLast(Kept))
                File.Delete(old); // names sort by time
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            error.WriteLine($"archiveemu run: warning: {Folder}: cannot write the run's log there ({UsageErrors.OneLine(e.Message)})");
            return new RunLog(null);
        }
        var log = new RunLog(path);
        log.Write($"archiveemu {Program.Version} run: {commandLine}");
        log.Write($"working folder: {Environment.CurrentDirectory}");
        return log;
    }

    /// <summary>Appends one line, stamped with the time as the host's lines are.</summary>
    public void Write(string line)
    {
        if (Path is null)
            return;
        try
        {
            // Opened at its end for each line, shared for writing as the host's sink holds it (which seeks to the end before each of its lines).
            using var file = new StreamWriter(new FileStream(Path, FileMode.Append, FileAccess.Write, FileShare.ReadWrite));
            file.Write($"{DateTime.Now:yyyy-MM-dd HH:mm:ss.fff} {line}\n");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // the disk filled or the file went: the same line is on stderr, which is all that is left
        }
    }

    /// <summary>The last error the host logged (its lines read "… ERR archiveemu-host: reason"), for the desktop notice.</summary>
    public string? LastHostError()
    {
        if (Path is null || !File.Exists(Path))
            return null;
        const string marker = " ERR archiveemu-host: ";
        return File.ReadLines(Path).LastOrDefault(l => l.Contains(marker, StringComparison.Ordinal)) is { } line
            ? line[(line.IndexOf(marker, StringComparison.Ordinal) + marker.Length)..]
            : null;
    }
}
