using System.Runtime.InteropServices;
using ArchiveEmu.Core.Interop;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Brings file ranges into the page cache in large folios. Why: a warm read copies out of the page cache about
/// 2.5x faster from large folios than from 4 KiB pages (measured on Linux 6.18, docs/BENCHMARKS-JOURNAL.md), and the kernel
/// only allocates large folios for a file read as one long stream. An emulated archive reads its sources in slices
/// with gaps and in many small files, and posix_fadvise(WILLNEED) and readahead(2) always fill order-0 pages, so the
/// sources would stay slow to read forever after. A page fault in a read-only mapping marked MADV_HUGEPAGE fills whole
/// PMD-sized folios instead, so the range is "touched" once through such a mapping (MADV_POPULATE_READ: no signal,
/// and an error rather than SIGBUS past the end of a file that shrank) and then read with pread as usual.
/// Everything here is a hint: any failure leaves the ordinary read path to do the work.
/// </summary>
internal static class PageCacheReads
{
    private const long PmdSize = 2L << 20; // one PMD folio on x86-64 and arm64 with 4 KiB pages
    private const long SmallSpan = 64 * 1024;
    private static readonly long PageSize = Environment.SystemPageSize;

    // cachestat(2) (Linux 6.5) says how much of a range is cached without touching it; 0 = untried, 1 = works, -1 = not here.
    private static int s_cachestat = OperatingSystem.IsLinux() && PageSize == 4096
        && RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.Arm64 ? 0 : -1;

    /// <summary>Whether <see cref="IsCached"/> can tell: false before Linux 6.5 and off Linux.</summary>
    public static bool CanTell => Volatile.Read(ref s_cachestat) >= 0;

    /// <summary>
    /// True when every page of [offset, offset + length) is in the page cache — or when the kernel cannot tell
    /// (then nothing should be done about it).
    /// </summary>
    public static bool IsCached(SafeFileHandle handle, long offset, long length)
    {
        if (length <= 0 || !CanTell)
            return true;
        if (CachedPages(handle, offset, length) is not { } cached || cached >= PagesOf(offset, length))
            return true;
        // Linux 6.18's cachestat undercounts a range that starts inside a large folio (seen: 7 of 13 pages, with the whole
        // file cached; about 1 query in 1,000 over small files). From the PMD boundary before it no folio is cut: all of
        // that cached means the range is.
        long from = offset & ~(PmdSize - 1);
        return from != offset && (CachedPages(handle, from, offset + length - from) is not { } wider || wider >= PagesOf(from, offset + length - from));
    }

    private static long PagesOf(long offset, long length) => (offset + length - 1) / PageSize - offset / PageSize + 1;

    // The pages of the range in the page cache; null when the kernel cannot say (then nothing should be done about it).
    private static long? CachedPages(SafeFileHandle handle, long offset, long length)
    {
        var range = new LibC.CachestatRange { Offset = (ulong)offset, Length = (ulong)length };
        long result;
        LibC.Cachestat stat;
        try
        {
            result = LibC.QueryCachestat(LibC.SYS_cachestat, handle, ref range, out stat, 0);
        }
        catch (ObjectDisposedException)
        {
            return null; // the pool evicted the handle meanwhile: the read that follows takes a fresh one
        }
        if (result != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            if (errno is LibC.ENOSYS or LibC.EPERM) // no such call (old kernel, or a seccomp filter that refuses it)
                Volatile.Write(ref s_cachestat, -1);
            return null;
        }
        Volatile.Write(ref s_cachestat, 1);
        return (long)stat.Cached;
    }

    /// <summary>
    /// Fills [offset, offset + length) of a file of <paramref name="fileLength"/> bytes into the page cache in
    /// PMD-sized folios, waiting for the reads. Declines (false) when whole folios would pull in more than as much
    /// again of bytes nobody asked for (a small slice in the middle of a big original), or off Linux.
    /// <paramref name="alsoNeeded"/>: bytes of the folios' span outside the range that the reader needs as well (the
    /// neighbouring slices of an original around a small injected entry), which do not count as pulled in for nothing.
    /// </summary>
    public static bool BringIn(SafeFileHandle handle, long offset, long length, long fileLength, long alsoNeeded = 0)
    {
        if (!OperatingSystem.IsLinux() || length <= 0 || offset >= fileLength)
            return false;
        length = Math.Min(length, fileLength - offset);
        var (spanStart, spanEnd) = Span(offset, length, fileLength);
        long needed = Math.Min(length + alsoNeeded, spanEnd - spanStart);
        if (spanEnd - spanStart > Math.Max(2 * needed, SmallSpan))
            return false;

        long mapStart = offset & ~(PageSize - 1);
        var mapLength = (nuint)(AlignUp(offset + length, PageSize) - mapStart);
        bool added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            nint map = LibC.Mmap(0, mapLength, LibC.PROT_READ, LibC.MAP_SHARED, (int)handle.DangerousGetHandle(), mapStart);
            if (map == -1)
                return false;
            try
            {
                // HUGEPAGE: faults fill PMD folios. RANDOM: one PMD per fault, not two (no read past what is asked).
                if (LibC.Madvise(map, mapLength, LibC.MADV_HUGEPAGE) != 0 || LibC.Madvise(map, mapLength, LibC.MADV_RANDOM) != 0)
                    return false;
                // A window at a time, unmapped again at once: the pages stay cached but never count in this process's
                // memory beyond one window.
                for (nuint at = 0; at < mapLength; at += PopulateWindow)
                {
                    var window = Math.Min(PopulateWindow, mapLength - at);
                    if (LibC.Madvise(map + (nint)at, window, LibC.MADV_POPULATE_READ) != 0)
                        return false;
                    _ = LibC.Madvise(map + (nint)at, window, LibC.MADV_DONTNEED);
                }
                return true;
            }
            finally
            {
                _ = LibC.Munmap(map, mapLength);
            }
        }
        catch (ObjectDisposedException)
        {
            return false; // evicted from the pool meanwhile
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    /// <summary>The whole folios [start, end) that bringing in [offset, +length) fills.</summary>
    public static (long Start, long End) Span(long offset, long length, long fileLength) =>
        (offset & ~(PmdSize - 1), Math.Min(AlignUp(offset + length, PmdSize), AlignUp(fileLength, PageSize)));

    private static long AlignUp(long value, long alignment) => (value + alignment - 1) & ~(alignment - 1);

    private const nuint PopulateWindow = 2u << 20;
}
