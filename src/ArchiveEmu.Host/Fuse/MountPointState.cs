using System.Diagnostics;
using System.Text;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>What is at a mount point before we mount: usable, a dead FUSE mount left by a crash, or a problem.</summary>
internal static class MountPointState
{
    /// <summary>
    /// Checks <paramref name="mountPoint"/> and clears a dead ArchiveEmu mount (stat fails with "Transport endpoint
    /// is not connected") by unmounting it, reported through <paramref name="cleaned"/>; a dead mount of anything else is
    /// refused. Returns a one-line problem, or null when the folder is an empty directory nothing is mounted on.
    /// </summary>
    public static string? Prepare(string mountPoint, Action<string> cleaned) => Prepare(mountPoint, cleaned, inPlace: false);

    /// <summary>
    /// As <see cref="Prepare(string, Action{string})"/> for a mount over the game folder itself: it is not empty (that is
    /// the point), but nothing may be mounted on it but a dead ArchiveEmu mount, which is cleared.
    /// </summary>
    public static string? PrepareInPlace(string game, Action<string> cleaned) => Prepare(game, cleaned, inPlace: true);

    private static string? Prepare(string mountPoint, Action<string> cleaned, bool inPlace)
    {
        var place = MountPlace.At(mountPoint);
        if (place.IsDeadArchiveEmu)
        {
            DetachLazily(mountPoint);
            cleaned($"{mountPoint}: found a dead FUSE mount of ArchiveEmu's (transport endpoint not connected, left by a crashed host); unmounted it");
            place = MountPlace.At(mountPoint);
        }
        if (place.Dead && place.Check(inPlace) is { Stops: true } deadOther) // one of ours not cleared: the stat below says why
            return deadOther.Line;
        Span<byte> stat = stackalloc byte[256];
        int error = LibC.Stat(mountPoint, stat);
        string what = inPlace ? "game folder" : "mount point";
        if (error == LibC.ENOENT)
            return inPlace ? $"{mountPoint}: game folder not found" : $"{mountPoint}: mount point not found (create an empty folder there first)";
        if (error != 0)
            return $"{mountPoint}: cannot use it as a {what} ({new System.ComponentModel.Win32Exception(error).Message})";
        if (!StatFields.IsDirectory(stat))
            return $"{mountPoint}: {what} is not a folder";
        if (place.Check(inPlace) is { Stops: true } mounted)
            return mounted.Line;
        if (!inPlace && Directory.EnumerateFileSystemEntries(mountPoint).Any())
            return $"{mountPoint}: mount point is not empty; mount on an empty folder so nothing is hidden";
        return null;
    }

    /// <summary>One line of /proc/self/mountinfo: the file system type and source of the mount at a folder.</summary>
    internal sealed record MountEntry(string FileSystemType, string Source)
    {
        /// <summary>A FUSE mount that ArchiveEmu made (both transports name type and source "archiveemu").</summary>
        public bool IsArchiveEmu => FileSystemType.StartsWith("fuse", StringComparison.Ordinal)
                                    && (FileSystemType == "fuse.archiveemu" || Source == "archiveemu");

        public override string ToString() => $"type {FileSystemType}, source {Source}";
    }

    /// <summary>
    /// The topmost mount at <paramref name="mountPoint"/>, or null when nothing is mounted there. Compared by real path:
    /// /proc/self/mountinfo lists a mount where the kernel put it, and the README's own game path
    /// (<c>~/.steam/steam/steamapps/…</c>) is a link on every Steam install, so a literal match missed the mount a run made.
    /// </summary>
    public static MountEntry? Find(string mountPoint)
    {
        var full = RealPath(mountPoint);
        MountEntry? found = null;
        // mountinfo fields: id parent major:minor root mount-point options [optional...] - fstype source superoptions
        foreach (var line in File.ReadLines("/proc/self/mountinfo"))
        {
            var fields = line.Split(' ');
            int dash = Array.IndexOf(fields, "-");
            if (fields.Length > 4 && Unescape(fields[4]) == full && dash > 0 && dash + 2 < fields.Length)
                found = new MountEntry(fields[dash + 1], Unescape(fields[dash + 2])); // later lines are mounted on top
        }
        return found;
    }

    /// <summary>
    /// <paramref name="path"/> with every symbolic link on the way resolved (<see cref="Core.Routing.GamePaths.RealPath"/>: lstat
    /// per component, never a stat through the last one, which may be a dead mount); as written when the links loop.
    /// </summary>
    public static string RealPath(string path)
    {
        try
        {
            return Path.TrimEndingDirectorySeparator(Core.Routing.GamePaths.RealPath(path));
        }
        catch (IOException) // too many levels of links
        {
            return Path.TrimEndingDirectorySeparator(Path.GetFullPath(path));
        }
    }

    /// <summary>Whether a dead ArchiveEmu mount (its host ended without unmounting) is at <paramref name="folder"/>, by real path.</summary>
    public static bool IsDeadArchiveEmu(string folder) => Find(folder) is { IsArchiveEmu: true } && IsDead(RealPath(folder));

    /// <summary>Whether a live ArchiveEmu mount (its host still serving) is at <paramref name="folder"/>, by real path.</summary>
    public static bool IsLiveArchiveEmu(string folder) => Find(folder) is { IsArchiveEmu: true } && !IsDead(RealPath(folder));

    /// <summary>Whether the FUSE mount at <paramref name="mountPoint"/> lost its server ("Transport endpoint is not connected").</summary>
    public static bool IsDead(string mountPoint)
    {
        Span<byte> stat = stackalloc byte[256];
        return LibC.Stat(mountPoint, stat) == LibC.ENOTCONN || LibC.ProbeDirectory(mountPoint) == LibC.ENOTCONN;
    }

    /// <summary>Whether <paramref name="mountPoint"/> is listed in /proc/self/mountinfo.</summary>
    public static bool IsMounted(string mountPoint) => Find(mountPoint) is not null;

    /// <summary>Detaches a mount now (MNT_DETACH): with root rights directly, otherwise through fusermount3 -u -z.</summary>
    public static unsafe void DetachLazily(string mountPoint)
    {
        if (LibC.GetEuid() == 0)
        {
            fixed (byte* path = LibC.Utf8Z(mountPoint))
                LibC.Umount2(path, LibC.MNT_DETACH); // EINVAL when already gone: fine
            return;
        }
        if (ProgramSearch.OnPath("fusermount3") is not { } fusermount)
            return; // no fusermount3: nothing more we can do without root
        try
        {
            using var process = Process.Start(new ProcessStartInfo(fusermount, ["-u", "-z", "-q", mountPoint])
            {
                UseShellExecute = false,
                RedirectStandardError = true,
            });
            process?.WaitForExit(5000);
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // no fusermount3: nothing more we can do without root
        }
    }

    // mountinfo escapes space, tab, newline and backslash as \ooo octal.
    private static string Unescape(string field)
    {
        if (!field.Contains('\\'))
            return field;
        var bytes = new List<byte>();
        for (int i = 0; i < field.Length; i++)
        {
            if (field[i] == '\\' && i + 3 < field.Length)
            {
                bytes.Add(Convert.ToByte(field.Substring(i + 1, 3), 8));
                i += 3;
            }
            else
                bytes.AddRange(Encoding.UTF8.GetBytes(field[i].ToString()));
        }
        return Encoding.UTF8.GetString(bytes.ToArray());
    }
}
