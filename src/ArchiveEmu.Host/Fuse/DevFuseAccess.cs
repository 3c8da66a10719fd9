namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// What to do when this user cannot open /dev/fuse: said by <c>doctor</c>'s check and by a mount that fails on it (run's
/// "fusermount3: failed to open /dev/fuse: Permission denied" gave no way out), in one wording.
/// </summary>
internal static class DevFuseAccess
{
    public static string Fix(string device = "/dev/fuse") =>
        $"let this user use it (desktop distributions ship it as crw-rw-rw-: sudo chmod 0666 {device}), or run as root";

    /// <summary>Whether fusermount3's or the kernel's error says /dev/fuse could not be opened for want of permission.</summary>
    public static bool IsRefusal(string error) =>
        error.Contains("/dev/fuse", StringComparison.Ordinal) && error.Contains("Permission denied", StringComparison.OrdinalIgnoreCase);
}
