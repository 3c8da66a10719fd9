namespace ArchiveEmu.Core.Interop;

/// <summary>
/// Creates folders (0700) and files (0600) readable by their owner only, whatever the umask: the merged cache and the
/// decoded copies of compressed entries hold copies of game and mod data and an index of the user's folders, and another
/// user able to write a pack could make ArchiveEmu serve their bytes (hashes catch damage, not a writer who rehashes).
/// </summary>
internal static class PrivateFiles
{
    private const UnixFileMode FolderMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode FileMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;

    public static void CreateFolder(string path)
    {
        if (OperatingSystem.IsWindows())
            Directory.CreateDirectory(path); // per-user profile ACLs already apply
        else
            Directory.CreateDirectory(path, FolderMode);
    }

    public static FileStream Open(string path, System.IO.FileMode mode, FileAccess access, FileShare share,
        FileOptions options = FileOptions.None, int bufferSize = 4096)
    {
        var create = new FileStreamOptions { Mode = mode, Access = access, Share = share, Options = options, BufferSize = bufferSize };
        if (!OperatingSystem.IsWindows() && mode != System.IO.FileMode.Open)
            create.UnixCreateMode = FileMode;
        return new FileStream(path, create);
    }
}
