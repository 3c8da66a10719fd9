namespace ArchiveEmu.Core.MergedCache.Folder;

/// <summary>Whether a cache folder takes new files, and what is wrong in words a user can act on when it does not.</summary>
internal static class CacheFolderAccess
{
    private const int ReadOnlyFileSystem = 30; // EROFS: .NET's IOException carries the errno as its HResult on Unix
    private const int PermissionDenied = 13, NotPermitted = 1; // EACCES, EPERM
    private const int NoSpace = 28, QuotaExceeded = 122; // ENOSPC, EDQUOT (Linux)
    private const int WindowsDiskFull = unchecked((int)0x80070070), WindowsHandleDiskFull = unchecked((int)0x80070027); // ERROR_DISK_FULL, ERROR_HANDLE_DISK_FULL

    /// <summary>
    /// Null when <paramref name="folder"/>, or while it does not exist the nearest folder it would be made in, takes a new
    /// file; else what is wrong, as "is on a read-only file system" or "is not writable (permission denied)". A file deleted
    /// on close is the one check that answers alike for root, ACLs and read-only mounts.
    /// </summary>
    public static string? WhyNotWritable(string folder)
    {
        if (WhyNoFolder(folder) is { } noFolder)
            return noFolder;
        var existing = Path.GetFullPath(folder);
        while (!Directory.Exists(existing) && Path.GetDirectoryName(existing) is { } parent)
            existing = parent;
        try
        {
            var options = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write, Options = FileOptions.DeleteOnClose };
            if (!OperatingSystem.IsWindows())
                options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
            using var probe = new FileStream(Path.Combine(existing, $".archiveemu-write-check-{Environment.ProcessId}"), options);
            return null;
        }
        catch (Exception e) when (Problem(e) is { } problem)
        {
            return problem;
        }
    }

    /// <summary>
    /// Null when <paramref name="folder"/> is a folder, or could be made as one; else why not: it, or a component above it,
    /// is something else (a file given by mistake as <c>--cache</c>). Without this a file there was taken for a folder yet
    /// to be made in its parent, and a mount served "from" it.
    /// </summary>
    public static string? WhyNoFolder(string folder)
    {
        var full = Path.GetFullPath(folder);
        for (var at = full; !Directory.Exists(at); at = Path.GetDirectoryName(at)!)
        {
            if (Path.Exists(at) || File.Exists(at)) // File.Exists: a link that leads nowhere is in the way too
                return at == full ? "is a file, not a folder" : $"cannot be made: {at} is a file, not a folder";
            if (Path.GetDirectoryName(at) is null)
                break;
        }
        return null;
    }

    /// <summary>
    /// Whether <paramref name="e"/>, thrown by writing to the cache, says its file system is full (or the user's quota on it
    /// is): not damage and not the game's problem, so what was to be packed is served by emulation instead.
    /// </summary>
    public static bool IsFull(Exception e) => e is IOException { HResult: NoSpace or QuotaExceeded or WindowsDiskFull or WindowsHandleDiskFull };

    /// <summary>What <paramref name="e"/>, thrown by creating or opening a file in the cache folder, says is wrong with the folder; null when it is something else.</summary>
    internal static string? Problem(Exception e) => e switch
    {
        UnauthorizedAccessException => "is not writable (permission denied)",
        DirectoryNotFoundException => "does not exist",
        IOException when IsFull(e) => "is on a full file system",
        IOException when OperatingSystem.IsWindows() => null,
        IOException { HResult: ReadOnlyFileSystem } => "is on a read-only file system",
        IOException { HResult: PermissionDenied or NotPermitted } => "is not writable (permission denied)",
        _ => null,
    };
}
