using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Tells the kernel which file ranges a sequential reader of a virtual file needs next (posix_fadvise WILLNEED),
/// so reading them from the device overlaps with copying the current piece. Only where <see cref="PageCacheReads"/>
/// cannot bring ranges in itself (before Linux 6.5), or declines to: WILLNEED fills order-0 pages, which copy out of
/// the page cache about 2.5x slower than large folios on every later warm read.
/// </summary>
internal static partial class ReadAheadHint
{
    private const int WillNeed = 3; // POSIX_FADV_WILLNEED on Linux

    public static void WillNeedSoon(SafeFileHandle handle, long offset, long length)
    {
        if (!OperatingSystem.IsLinux() || length <= 0)
            return;
        bool added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            _ = posix_fadvise((int)handle.DangerousGetHandle(), offset, length, WillNeed); // a hint: a failure changes nothing
        }
        catch (ObjectDisposedException)
        {
            // evicted from the pool meanwhile: nothing to hint
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    private static partial int posix_fadvise(int fd, long offset, long length, int advice);
}
