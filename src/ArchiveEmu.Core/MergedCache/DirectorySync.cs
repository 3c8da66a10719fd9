using System.Runtime.InteropServices;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// Flushes a directory's entries to disk (fsync on the directory). A rename or a new file is only durable once
/// its directory is: without this, a power cut after a commit could bring back the old index, or an index
/// naming a pack file whose directory entry was never written.
/// </summary>
internal static partial class DirectorySync
{
    private const int ReadOnly = 0, Directory = 0x10000, CloseOnExec = 0x80000; // O_RDONLY, O_DIRECTORY, O_CLOEXEC (Linux)

    /// <summary>Syncs <paramref name="folder"/>; throws an IOException naming it if the system refuses.</summary>
    public static void Flush(string folder)
    {
        if (!OperatingSystem.IsLinux())
            return; // Windows has no directory fsync (NTFS journals renames); other systems are not targets
        int fd = Open(folder, ReadOnly | Directory | CloseOnExec);
        if (fd < 0)
            throw new IOException($"{folder}: cannot open the folder to flush it ({Marshal.GetLastPInvokeErrorMessage()})");
        try
        {
            if (Fsync(fd) != 0)
                throw new IOException($"{folder}: flushing the folder to disk failed ({Marshal.GetLastPInvokeErrorMessage()})");
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int Close(int fd);
}
