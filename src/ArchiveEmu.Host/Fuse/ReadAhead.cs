using System.Globalization;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The kernel read-ahead of a FUSE mount. It starts at 128 KiB whatever the disk below uses, so a cold
/// sequential read crosses into the host in small, mostly serial steps; a larger window sends several
/// 1 MiB reads at once. Setting it is a root-only sysfs write for this mount's own backing device.
/// </summary>
internal static class ReadAhead
{
    /// <summary>The kernel's read-ahead of a FUSE mount until root raises it: 128 KiB.</summary>
    public const long DefaultBytes = 128 * 1024;

    /// <summary>
    /// The read-ahead of the disk holding <paramref name="path"/> in bytes (what the kernel reads ahead for a plain file
    /// there: 8 MiB on machine R's virtio disk, 128 KiB on a Steam Deck's), or null where no block device says (btrfs, tmpfs).
    /// </summary>
    public static long? OfDiskUnder(string path)
    {
        if (Device(path) is not var (major, minor))
            return null;
        // A whole disk has its queue under its own /sys/dev/block entry, a partition under its disk's.
        foreach (var file in new[] { $"/sys/dev/block/{major}:{minor}/queue/read_ahead_kb", $"/sys/dev/block/{major}:{minor}/../queue/read_ahead_kb", $"/sys/class/bdi/{major}:{minor}/read_ahead_kb" })
        {
            try
            {
                return long.Parse(File.ReadAllText(file).Trim(), CultureInfo.InvariantCulture) * 1024;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
            {
                // not this one
            }
        }
        return null;
    }

    /// <summary>Sets read_ahead_kb of the mount's backing device; returns null on success or why it could not.</summary>
    public static string? TrySet(string mountPoint, int kilobytes)
    {
        if (Device(mountPoint) is not var (major, minor))
            return "stat failed";
        // A FUSE mount has an anonymous device (major 0). Anything else is the folder below a mount already gone (unmounted
        // as it started), and its bdi is the game disk's, which this must never change.
        if (major != 0)
            return $"{mountPoint} is no longer a FUSE mount (device {major}:{minor})";
        var path = $"/sys/class/bdi/{major}:{minor}/read_ahead_kb";
        try
        {
            File.WriteAllText(path, kilobytes.ToString(CultureInfo.InvariantCulture));
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return $"{path}: {e.Message}";
        }
    }

    private static (ulong Major, ulong Minor)? Device(string path)
    {
        Span<byte> stat = stackalloc byte[256];
        if (LibC.Stat(path, stat) != 0)
            return null;
        ulong dev = Core.Interop.FileStatus.FromLibcStat(stat).Device;
        return (((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffUL), (dev & 0xff) | ((dev >> 12) & ~0xffUL));
    }
}
