using System.Runtime.InteropServices;

namespace ArchiveEmu.Cli.Interop;

/// <summary>The libc calls the command line makes (the bench's cache dropping), declared once.</summary>
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
}
