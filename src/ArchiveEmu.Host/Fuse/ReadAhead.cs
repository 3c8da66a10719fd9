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
    /// <summary>Sets read_ahead_kb of the mount's backing device; returns null on success or why it could not.</summary>
    public static string? TrySet(string mountPoint, int kilobytes)
    {
        Span<byte> stat = stackalloc byte[256];
        int error = LibC.Stat(mountPoint, stat);
        if (error != 0)
            return $"stat failed ({error})";
        ulong dev = Core.Interop.FileStatus.FromLibcStat(stat).Device;
        ulong major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffUL);
        ulong minor = (dev & 0xff) | ((dev >> 12) & ~0xffUL);
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
}
