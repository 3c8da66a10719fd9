using System.Runtime.InteropServices;

namespace ArchiveEmu.Core.Interop;

/// <summary>
/// Flushes a directory's entries to disk (fsync on the directory). A rename or a new file is only durable once
/// its directory is: without this, a power cut after a commit could bring back the old index, or an index
/// naming a pack file whose directory entry was never written.
/// </summary>
internal static class DirectorySync
{
    /// <summary>Syncs <paramref name="folder"/>; throws an IOException naming it if the system refuses.</summary>
    public static void Flush(string folder)
    {
        if (!OperatingSystem.IsLinux())
            return; // Windows has no directory fsync (NTFS journals renames); other systems are not targets
        int fd = LibC.Open(folder, LibC.O_RDONLY | LibC.O_DIRECTORY | LibC.O_CLOEXEC);
        if (fd < 0)
            throw new IOException($"{folder}: cannot open the folder to flush it ({Marshal.GetLastPInvokeErrorMessage()})");
        try
        {
            if (LibC.Fsync(fd) != 0)
                throw new IOException($"{folder}: flushing the folder to disk failed ({Marshal.GetLastPInvokeErrorMessage()})");
        }
        finally
        {
            _ = LibC.Close(fd);
        }
    }
}
