using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The game folder opened before an in-place mount covers it. Core and the host are given <see cref="Path"/>
/// (<c>/proc/self/fd/N</c>) as the game folder: the kernel resolves that magic link to the opened directory itself, the
/// folder underneath the mount, so every path built on it reads the originals — never the mount, which would recurse.
/// Nothing may realpath or readlink it: its link text is the game's path, which leads into the mount.
/// </summary>
internal sealed class GameFolderHandle : IDisposable
{
    // A high, fixed number: the path (part of route plan keys; cache keys name the folder itself) stays the same from one start to the next.
    private const int LowestFd = 1000;

    private readonly Regex _fdPath;
    private int _fd;

    private GameFolderHandle(string folder, int fd)
    {
        Folder = folder;
        _fd = fd;
        Path = $"/proc/self/fd/{fd}";
        _fdPath = new Regex(Regex.Escape(Path) + "(?![0-9])", RegexOptions.CultureInvariant);
    }

    /// <summary>The game folder as the user named it.</summary>
    public string Folder { get; }

    /// <summary>The path through the handle: the originals underneath the mount.</summary>
    public string Path { get; }

    /// <summary>
    /// Opens <paramref name="folder"/> (O_PATH: no read rights needed, nothing kept busy but the folder itself); messages
    /// name it <paramref name="shownAs"/> (the path as the user gave it).
    /// </summary>
    public static GameFolderHandle Open(string folder, string shownAs)
    {
        int opened = Core.Interop.LibC.Open(folder, LibC.O_PATH | LibC.O_CLOEXEC);
        if (opened < 0)
            throw new IOException($"{folder}: cannot open the game folder ({Kernel.Errno.Describe(Marshal.GetLastPInvokeError())})");
        int fd = LibC.Fcntl(opened, LibC.F_DUPFD_CLOEXEC, LowestFd);
        int error = fd < 0 ? Marshal.GetLastPInvokeError() : 0; // before close, which sets the last error too
        Core.Interop.LibC.Close(opened);
        if (fd < 0)
            throw new IOException($"{folder}: cannot keep a handle on the game folder ({Kernel.Errno.Describe(error)})");
        var handle = new GameFolderHandle(shownAs, fd);
        if (!Directory.Exists(handle.Path))
        {
            handle.Dispose();
            throw new IOException($"{folder}: game folder is not a folder");
        }
        return handle;
    }

    /// <summary><paramref name="text"/> with the handle's path written as the game folder, for messages and logs.</summary>
    public string Shown(string text) => text.Contains(Path, StringComparison.Ordinal) ? _fdPath.Replace(text, Folder) : text;

    public void Dispose()
    {
        if (_fd >= 0)
            Core.Interop.LibC.Close(_fd);
        _fd = -1;
    }
}
