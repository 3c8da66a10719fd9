using System.Runtime.InteropServices;

namespace ArchiveEmu.Cli.Interop;

/// <summary>The libc calls the command line makes (the bench's cache dropping, resolving paths), declared once.</summary>
internal static partial class LibC
{
    public const int POSIX_FADV_DONTNEED = 4;

    /// <summary>posix_fadvise(2): returns the error number, not -1.</summary>
    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    public static partial int PosixFadvise(int fd, long offset, long length, int advice);

    [LibraryImport("libc", EntryPoint = "sync")]
    public static partial void Sync();

    [LibraryImport("libc", EntryPoint = "geteuid")]
    public static partial uint GetEuid();

    /// <summary>realpath(3) with a null buffer: a malloc'd string the caller frees with <see cref="Free"/>; zero on error.</summary>
    [LibraryImport("libc", EntryPoint = "realpath", StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint RealPath(string path, nint resolved);

    [LibraryImport("libc", EntryPoint = "free")]
    public static partial void Free(nint pointer);
}
