using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Makes the next read of a file come from the device (<c>--cold</c>): its pages are dropped with
/// posix_fadvise(DONTNEED). DONTNEED skips dirty pages, so the bench calls <see cref="SyncAll"/> once after
/// generating its files (a per-file fdatasync before every drop cost a second per run over 1,000 files). With
/// <c>--drop-caches</c> and root, the whole page cache, dentries and inodes go too.
/// </summary>
internal static class PageCache
{
    private const string DropCachesPath = "/proc/sys/vm/drop_caches";

    /// <summary>Drops the cached pages of every file in <paramref name="paths"/> (missing files are skipped).</summary>
    public static void Drop(IEnumerable<string> paths)
    {
        if (!OperatingSystem.IsLinux())
            throw new PlatformNotSupportedException("--cold needs Linux (posix_fadvise)");
        foreach (var path in paths)
        {
            if (!File.Exists(path))
                continue;
            using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            int fd = (int)handle.DangerousGetHandle();
            int error = LibC.PosixFadvise(fd, 0, 0, LibC.POSIX_FADV_DONTNEED); // returns the error number, not -1
            if (error != 0)
                throw new IOException($"{path}: posix_fadvise(DONTNEED) failed (errno {error})");
        }
    }

    /// <summary>Whether this process may write <c>/proc/sys/vm/drop_caches</c> (root on Linux).</summary>
    public static bool CanDropAll => OperatingSystem.IsLinux() && Environment.IsPrivilegedProcess && File.Exists(DropCachesPath);

    /// <summary>Writes back everything, then drops the page cache, dentries and inodes of the whole machine.</summary>
    public static void DropAll()
    {
        LibC.Sync();
        File.WriteAllText(DropCachesPath, "3");
    }

    /// <summary>Writes every dirty page back (so a later DONTNEED really empties the cache).</summary>
    public static void SyncAll()
    {
        if (OperatingSystem.IsLinux())
            LibC.Sync();
    }
}
