using System.Globalization;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// Which process serves a FUSE mount: the kernel does not say, so the candidates are the processes holding /dev/fuse open
/// whose command line names ArchiveEmu; those naming the folder (or started in it, as Steam starts <c>run</c>) when any does.
/// Only this user's processes can be seen (root sees all).
/// </summary>
internal static class MountHolder
{
    /// <summary>A live process: its id, its command line and when it started.</summary>
    internal sealed record Process(int Id, string CommandLine, DateTime StartedUtc)
    {
        public override string ToString() =>
            $"pid {Id}, started {StartedUtc.ToLocalTime():yyyy-MM-dd HH:mm:ss}: {CommandLine}";
    }

    /// <summary>The ArchiveEmu processes that may serve <paramref name="folder"/>; empty when none can be seen.</summary>
    public static IReadOnlyList<Process> Find(string folder)
    {
        var full = Path.GetFullPath(folder).TrimEnd('/');
        var found = new List<Process>();
        foreach (var entry in SafeList("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(entry), NumberStyles.None, CultureInfo.InvariantCulture, out int pid) || pid == Environment.ProcessId)
                continue;
            var commandLine = CommandLine(pid);
            if (commandLine is null || !commandLine.Contains("archiveemu", StringComparison.OrdinalIgnoreCase) || !HoldsFuseDevice(pid))
                continue;
            if (StartTime(pid) is { } started)
                found.Add(new Process(pid, commandLine, started));
        }
        var named = found.Where(p => p.CommandLine.Contains(full, StringComparison.Ordinal) || LinkTarget($"/proc/{p.Id}/cwd") == full).ToArray();
        return (named.Length > 0 ? named : found.ToArray()).OrderBy(p => p.Id).ToArray();
    }

    private static bool HoldsFuseDevice(int pid) =>
        SafeList($"/proc/{pid}/fd").Any(fd => LinkTarget(fd) == "/dev/fuse");

    private static string? CommandLine(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/cmdline").TrimEnd('\0');
            return text.Length == 0 ? null : text.Replace('\0', ' ');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // gone, or not ours to read
        }
    }

    /// <summary>Field 22 of /proc/PID/stat is the start in clock ticks after boot; /proc/stat's btime is the boot.</summary>
    private static DateTime? StartTime(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' '); // the name in parentheses may hold spaces
            long ticks = long.Parse(fields[19], CultureInfo.InvariantCulture); // field 22 is the 20th after the name
            long boot = long.Parse(File.ReadLines("/proc/stat").First(l => l.StartsWith("btime ", StringComparison.Ordinal))[6..], CultureInfo.InvariantCulture);
            return DateTime.UnixEpoch.AddSeconds(boot + ticks / (double)ClockTicksPerSecond);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or InvalidOperationException)
        {
            return null;
        }
    }

    private const int ClockTicksPerSecond = 100; // USER_HZ: 100 on every Linux architecture .NET runs on

    private static string? LinkTarget(string path)
    {
        try
        {
            return new FileInfo(path).LinkTarget;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static string[] SafeList(string folder)
    {
        try
        {
            return Directory.GetFileSystemEntries(folder);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }
}
