using System.Diagnostics;
using System.Text;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>What is at a mount point before we mount: usable, a dead FUSE mount left by a crash, or a problem.</summary>
internal static class MountPointState
{
    /// <summary>
    /// Checks <paramref name="mountPoint"/> and clears a dead FUSE mount (stat fails with "Transport endpoint
    /// is not connected") by unmounting it, reported through <paramref name="cleaned"/>. Returns a one-line
    /// problem, or null when the folder is an empty directory nothing is mounted on.
    /// </summary>
    public static string? Prepare(string mountPoint, Action<string> cleaned)
    {
        Span<byte> stat = stackalloc byte[256];
        int error = LibC.Stat(mountPoint, stat);
        // The kernel may answer stat from its attribute cache for a few seconds after the server died; opendir must ask.
        if (error == LibC.ENOTCONN || (error == 0 && IsMounted(mountPoint) && LibC.ProbeDirectory(mountPoint) == LibC.ENOTCONN))
        {
            DetachLazily(mountPoint);
            cleaned($"{mountPoint}: found a dead FUSE mount (transport endpoint not connected, left by a crashed host); unmounted it");
            error = LibC.Stat(mountPoint, stat);
        }
        if (error == LibC.ENOENT)
            return $"{mountPoint}: mount point not found (create an empty folder there first)";
        if (error != 0)
            return $"{mountPoint}: cannot use it as a mount point ({new System.ComponentModel.Win32Exception(error).Message})";
        if (!StatFields.IsDirectory(stat))
            return $"{mountPoint}: mount point is not a folder";
        if (IsMounted(mountPoint))
            return $"{mountPoint}: something is already mounted there (busy); unmount it first (fusermount3 -u {mountPoint})";
        if (Directory.EnumerateFileSystemEntries(mountPoint).Any())
            return $"{mountPoint}: mount point is not empty; mount on an empty folder so nothing is hidden";
        return null;
    }

    /// <summary>Whether <paramref name="mountPoint"/> is listed in /proc/self/mountinfo.</summary>
    public static bool IsMounted(string mountPoint)
    {
        var full = Path.GetFullPath(mountPoint).TrimEnd('/');
        if (full.Length == 0)
            full = "/";
        foreach (var line in File.ReadLines("/proc/self/mountinfo"))
        {
            var fields = line.Split(' ');
            if (fields.Length > 4 && Unescape(fields[4]) == full)
                return true;
        }
        return false;
    }

    /// <summary>Detaches a mount now (MNT_DETACH): with root rights directly, otherwise through fusermount3 -u -z.</summary>
    public static unsafe void DetachLazily(string mountPoint)
    {
        if (LibC.GetEuid() == 0)
        {
            fixed (byte* path = LibC.Utf8Z(mountPoint))
                LibC.Umount2(path, LibC.MNT_DETACH); // EINVAL when already gone: fine
            return;
        }
        try
        {
            using var process = Process.Start(new ProcessStartInfo("fusermount3", ["-u", "-z", "-q", mountPoint])
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
