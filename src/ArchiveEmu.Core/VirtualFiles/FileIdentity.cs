using ArchiveEmu.Core.Interop;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>What a file looked like when a virtual file was built over it: a change means its bytes may have moved.</summary>
/// <param name="Length">The size in bytes.</param>
/// <param name="LastWriteUtc">The mtime, to .NET's 100 ns ticks. User tools set it back (cp -p, touch -r, rsync -t, tar x, unzip).</param>
/// <param name="ChangeUtc">
/// The ctime (Windows: ChangeTime), to 100 ns ticks: moved by every write, rename or attribute change, and set by no
/// user tool, so new bytes under an old size and mtime still change it. Where the system keeps none, the mtime.
/// </param>
/// <param name="Inode">
/// The inode number (Windows: the file index), so a file renamed over this one differs even within one ctime tick; 0
/// where the file system makes the number up anew (FAT, exFAT, FUSE, CIFS: see <see cref="InodeStability"/>) or the
/// system has none.
/// </param>
internal readonly record struct FileIdentity(long Length, DateTime LastWriteUtc, DateTime ChangeUtc, ulong Inode)
{
    /// <summary>Reads the identity of the file at <paramref name="path"/> (one stat, links followed); a missing file is a <see cref="FileNotFoundException"/> naming it.</summary>
    public static FileIdentity Of(string path) => From(FileStatus.Of(path), path);

    /// <summary>The identity of an open file (fstat: the file it names now, whatever its path became).</summary>
    internal static FileIdentity Of(SafeFileHandle handle)
    {
        var status = FileStatus.Of(handle);
        return Of(status, InodeStability.IsStable(status.Device, handle));
    }

    /// <summary>The identity of the file at <paramref name="path"/> from a status already taken of it (no second stat).</summary>
    internal static FileIdentity From(FileStatus status, string path)
    {
        if (status.IsDirectory)
            throw new FileNotFoundException($"{path}: file not found (a folder is there)", path);
        // A FIFO read as a file waits for a writer forever; a device has no length (a FIFO in a mod was served as an empty
        // file with exit 0). Downloaded mods carry them: tar and 7z keep FIFOs and links to devices.
        if (!status.IsRegularFile)
            throw new IOException($"{path}: {status.Kind}, not a regular file; only regular files are served");
        return Of(status, status.Inode != 0 && InodeStability.IsStable(status.Device, path));
    }

    private static FileIdentity Of(FileStatus status, bool inodeIsStable) =>
        new(status.Length, status.Modified.ToDateTime(), status.Changed.ToDateTime(), inodeIsStable ? status.Inode : 0);

    public override string ToString() =>
        $"{Length} bytes, modified {LastWriteUtc:yyyy-MM-dd HH:mm:ss.fffffff}Z, changed {ChangeUtc:yyyy-MM-dd HH:mm:ss.fffffff}Z, inode {(Inode == 0 ? "-" : Inode)}";
}
