using System.Runtime.InteropServices;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// Looks at a file's pages in the page cache from the outside: drops them (fsync + posix_fadvise DONTNEED) and tells
/// how many of a range sit in large folios, by mapping the file and reading /proc/self/pagemap and /proc/kpageflags
/// (which need root to show page frame numbers). Linux only.
/// </summary>
public static partial class PageCacheProbe
{
    private const int PageSize = 4096;

    /// <summary>Writes the file's dirty pages and drops all its cached pages.</summary>
    public static void Drop(string path)
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("LinuxOnly: probes the Linux page cache (posix_fadvise, /proc/self/pagemap)");
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        stream.Flush(flushToDisk: true);
        _ = posix_fadvise((int)stream.SafeFileHandle.DangerousGetHandle(), 0, 0, DontNeed);
    }

    /// <summary>Why large folios cannot be seen here (not root, no kpageflags, THP off), or null when they can.</summary>
    public static string? WhyFoliosAreHidden()
    {
        if (!OperatingSystem.IsLinux())
            return "not Linux";
        if (Environment.UserName != "root")
            return "page frame numbers need root";
        if (!File.Exists("/proc/kpageflags"))
            return "no /proc/kpageflags";
        const string thp = "/sys/kernel/mm/transparent_hugepage/enabled";
        if (!File.Exists(thp) || File.ReadAllText(thp).Contains("[never]"))
            return "transparent huge pages are off";
        return null;
    }

    /// <summary>
    /// The share of the cached pages of [offset, offset + length) that belong to a folio larger than one page.
    /// Pages not cached count as small. Maps the file read-only and touches each page (which maps, never reads, a
    /// cached page; an uncached one is read in as the kernel pleases).
    /// </summary>
    public static double ShareInLargeFolios(string path, long offset, long length)
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("LinuxOnly: probes the Linux page cache (posix_fadvise, /proc/self/pagemap)");
        using var file = File.OpenHandle(path);
        long start = offset / PageSize * PageSize;
        long pages = (offset + length - start + PageSize - 1) / PageSize;
        nint map = mmap(0, (nuint)(pages * PageSize), 1 /* PROT_READ */, 1 /* MAP_SHARED */, (int)file.DangerousGetHandle(), start);
        if (map == -1)
            throw new IOException($"mmap of {path} failed: errno {Marshal.GetLastPInvokeError()}");
        try
        {
            using var pagemap = File.OpenHandle("/proc/self/pagemap");
            using var flags = File.OpenHandle("/proc/kpageflags");
            Span<byte> entry = stackalloc byte[8];
            long large = 0;
            for (long p = 0; p < pages; p++)
            {
                nint address = map + (nint)(p * PageSize);
                _ = Marshal.ReadByte(address);
                RandomAccess.Read(pagemap, entry, address / PageSize * 8);
                ulong pfn = BitConverter.ToUInt64(entry) & ((1UL << 55) - 1);
                if (pfn == 0)
                    continue;
                RandomAccess.Read(flags, entry, (long)pfn * 8);
                ulong pageFlags = BitConverter.ToUInt64(entry);
                if ((pageFlags & (CompoundHead | CompoundTail)) != 0)
                    large++;
            }
            return (double)large / pages;
        }
        finally
        {
            _ = munmap(map, (nuint)(pages * PageSize));
        }
    }

    private const int DontNeed = 4;
    private const ulong CompoundHead = 1UL << 15, CompoundTail = 1UL << 16;

    [LibraryImport("libc")]
    private static partial int posix_fadvise(int fd, long offset, long length, int advice);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint mmap(nint address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport("libc")]
    private static partial int munmap(nint address, nuint length);
}
