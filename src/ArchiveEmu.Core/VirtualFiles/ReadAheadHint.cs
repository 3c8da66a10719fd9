using ArchiveEmu.Core.Interop;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Tells the kernel which file ranges a sequential reader of a virtual file needs next (posix_fadvise WILLNEED),
/// so reading them from the device overlaps with copying the current piece. Only where <see cref="PageCacheReads"/>
/// cannot bring ranges in itself (before Linux 6.5), or declines to: WILLNEED fills order-0 pages, which copy out of
/// the page cache about 2.5x slower than large folios on every later warm read.
/// </summary>
internal static class ReadAheadHint
{
    public static void WillNeedSoon(SafeFileHandle handle, long offset, long length)
    {
        if (!OperatingSystem.IsLinux() || length <= 0)
            return;
        bool added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            _ = LibC.PosixFadvise((int)handle.DangerousGetHandle(), offset, length, LibC.POSIX_FADV_WILLNEED); // a hint: a failure changes nothing
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
}
