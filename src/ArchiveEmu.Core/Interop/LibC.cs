using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

/// <summary>
/// The libc calls of the solution, each declared once (an architecture test checks it): Core's on Linux (page-cache hints,
/// mappings, stat and statfs, the file calls of a directory fsync) and those the CLI and the host share or the CLI alone
/// makes (resolving paths, sync, kill). What only the mount calls is the host's (Host/Interop/LibC.cs).
/// </summary>
internal static unsafe partial class LibC
{
    public const int EPERM = 1, ENOENT = 2, EXDEV = 18, ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENOTTY = 25, ENOSYS = 38, EOPNOTSUPP = 95;
    public const int O_RDONLY = 0, O_RDWR = 2, O_DIRECTORY = 0x10000, O_CLOEXEC = 0x80000;
    public const int O_TMPFILE = 0x400000 | O_DIRECTORY; // the same on x86_64 and arm64
    public const int PROT_READ = 1, MAP_SHARED = 1;
    public const int MADV_RANDOM = 1, MADV_DONTNEED = 4, MADV_HUGEPAGE = 14, MADV_POPULATE_READ = 22;
    public const int POSIX_FADV_WILLNEED = 3, POSIX_FADV_DONTNEED = 4;
    public const long SYS_cachestat = 451; // the same number on x86-64 and arm64

    /// <summary>struct cachestat_range of cachestat(2).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CachestatRange
    {
        public ulong Offset;
        public ulong Length;
    }

    /// <summary>struct cachestat of cachestat(2).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Cachestat
    {
        public ulong Cached;
        public ulong Dirty;
        public ulong Writeback;
        public ulong Evicted;
        public ulong RecentlyEvicted;
    }

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    public static partial long QueryCachestat(long number, SafeFileHandle fd, ref CachestatRange range, out Cachestat stat, uint flags);

    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    public static partial int PosixFadvise(int fd, long offset, long length, int advice);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    public static partial nint Mmap(nint address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport("libc", EntryPoint = "madvise")]
    public static partial int Madvise(nint address, nuint length, int advice);

    [LibraryImport("libc", EntryPoint = "munmap")]
    public static partial int Munmap(nint address, nuint length);

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Open(string path, int flags, uint mode = 0);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    public static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    /// <summary>stat(2) into a buffer of at least <see cref="FileStatus.LibcStatSize"/> bytes.</summary>
    [LibraryImport("libc", EntryPoint = "stat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Stat(string path, byte* buffer);

    /// <summary>fstat(2) into a buffer of at least <see cref="FileStatus.LibcStatSize"/> bytes.</summary>
    [LibraryImport("libc", EntryPoint = "fstat", SetLastError = true)]
    public static partial int Fstat(SafeFileHandle fd, byte* buffer);

    /// <summary>statfs(2) into a buffer of at least 120 bytes; f_type is its first field (a long) on x86_64 and arm64.</summary>
    [LibraryImport("libc", EntryPoint = "statfs", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Statfs(string path, byte* buffer);

    /// <summary>fstatfs(2), as <see cref="Statfs"/>.</summary>
    [LibraryImport("libc", EntryPoint = "fstatfs", SetLastError = true)]
    public static partial int Fstatfs(SafeFileHandle fd, byte* buffer);

    /// <summary>realpath(3) with a null buffer: a malloc'd string the caller frees with <see cref="Free"/>; zero on error.</summary>
    [LibraryImport("libc", EntryPoint = "realpath", StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint RealPath(string path, nint resolved);

    [LibraryImport("libc", EntryPoint = "free")]
    public static partial void Free(nint pointer);

    public const int X_OK = 1;

    /// <summary>access(2): whether this user may do <paramref name="mode"/> (<see cref="X_OK"/>: run it) with the file, as exec would judge.</summary>
    [LibraryImport("libc", EntryPoint = "access", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Access(string path, int mode);

    [LibraryImport("libc", EntryPoint = "sync")]
    public static partial void Sync();

    [LibraryImport("libc", EntryPoint = "kill")]
    public static partial int Kill(int pid, int signal);

    /// <summary>_IOW(0x94, 13, struct file_clone_range): share a range of one file's blocks with another (btrfs, XFS).</summary>
    public const nuint FICLONERANGE = 0x4020940D;

    /// <summary>struct file_clone_range of ioctl_ficlonerange(2).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FileCloneRange
    {
        public long SourceFd;
        public ulong SourceOffset;
        public ulong SourceLength;
        public ulong DestinationOffset;
    }

    [LibraryImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    public static partial int Ioctl(int fd, nuint request, void* argument);
}
