using System.Globalization;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The process serving a live ArchiveEmu mount, found in /proc: it holds /dev/fuse open and either holds the folder itself
/// open (in place, the game folder's handle) or names it among its arguments. Only what this user may see is searched.
/// </summary>
internal sealed record MountServer(int Pid, string Command, DateTime Since)
{
    /// <summary>"process 1234 (archiveemu run --profile p5r -- …), since 2026-11-27 07:40:12".</summary>
    public override string ToString() => $"process {Pid} ({Command}), since {Since.ToLocalTime():yyyy-MM-dd HH:mm:ss}";

    /// <summary>The process serving <paramref name="folder"/> (a full path), or null when none this user can see does.</summary>
    public static MountServer? Find(string folder)
    {
        string? realFolder = null; // resolved once, and only when a process with /dev/fuse open names something
        foreach (var dir in SafeList(() => Directory.GetDirectories("/proc")))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out int pid) || pid == Environment.ProcessId)
                continue;
            // Entries, not files: classifying a link to a folder would stat it, through the mount.
            var links = SafeList(() => Directory.GetFileSystemEntries(Path.Combine(dir, "fd")).Select(fd => Link(fd) ?? "").ToArray());
            if (!links.Contains("/dev/fuse"))
                continue;
            var args = SafeList(() => File.ReadAllText(Path.Combine(dir, "cmdline")).Split('\0', StringSplitOptions.RemoveEmptyEntries));
            var cwd = Link(Path.Combine(dir, "cwd"));
            if (links.Contains(folder) || args.Any(a => Names(a, folder, realFolder ??= MountPointState.RealPath(folder), cwd)))
                return new MountServer(pid, Shorten(string.Join(' ', args)), Started(dir));
        }
        return null;
    }

    /// <summary>Whether a command-line argument names the folder: as a path (relative to the process's folder) or as a setting's value (<c>--ArchiveEmu:Game=/…</c>).</summary>
    private static bool Names(string arg, string folder, string realFolder, string? cwd)
    {
        var value = arg.StartsWith("--", StringComparison.Ordinal) && arg.IndexOf('=') is > 0 and var eq ? arg[(eq + 1)..] : arg;
        if (value.Length == 0 || value.StartsWith('-') || (cwd is null && !Path.IsPathRooted(value)))
            return false;
        var named = Path.TrimEndingDirectorySeparator(Path.GetFullPath(value, cwd ?? "/"));
        return named == folder || MountPointState.RealPath(named) == realFolder; // a run started through ~/.steam/steam, a link
    }

    /// <summary>When the process started: its start in clock ticks after boot (/proc/PID/stat field 22) plus the boot time (/proc/stat btime).</summary>
    private static DateTime Started(string dir)
    {
        try
        {
            var stat = File.ReadAllText(Path.Combine(dir, "stat"));
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' '); // the name in () may hold spaces; field 3 is the first after it
            long ticks = long.Parse(fields[22 - 3], CultureInfo.InvariantCulture);
            long boot = long.Parse(File.ReadLines("/proc/stat").First(l => l.StartsWith("btime ", StringComparison.Ordinal))[6..], CultureInfo.InvariantCulture);
            return DateTimeOffset.FromUnixTimeSeconds(boot).UtcDateTime.AddSeconds(ticks / (double)ClockTicksPerSecond);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or InvalidOperationException)
        {
            return Directory.GetCreationTimeUtc(dir);
        }
    }

    // USER_HZ, what /proc counts in: 100 on every Linux build for x86_64 and arm64 (sysconf(_SC_CLK_TCK)).
    private const int ClockTicksPerSecond = 100;

    private static string Shorten(string command) => command.Length <= 200 ? command : command[..199] + "…";

    private static string? Link(string path)
    {
        try
        {
            return new FileInfo(path).LinkTarget; // readlink: the link's text, never a look through the mount
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    // A process may end, or hide its folders from this user, while we look.
    private static string[] SafeList(Func<string[]> list)
    {
        try
        {
            return list();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }
}
