using System.Runtime.InteropServices;

namespace ArchiveEmu.Host.Interop;

/// <summary>
/// The libc calls only the mount makes: statvfs, mount and unmount, the user it runs as, and the raw file calls that speak
/// the FUSE protocol on /dev/fuse (and receive it from fusermount3). Each is declared once in the solution: stat, open, close and realpath are Core's
/// (<see cref="Core.Interop.LibC"/>), called from here or directly.
/// </summary>
internal static unsafe partial class LibC
{
    public const int ENOENT = 2;
    public const int EIO = 5;
    public const int EACCES = 13;
    public const int ENOTDIR = 20;
    public const int EISDIR = 21;
    public const int EROFS = 30;
    public const int ENOTCONN = 107;
    public const int EINTR = 4;
    public const int EAGAIN = 11;
    public const int EBUSY = 16;
    public const int ENODEV = 19;
    public const int ENOSYS = 38;
    public const int ESTALE = 116;

    public const int O_RDWR = 2;
    public const int O_CLOEXEC = 0x80000;

    public const int O_ACCMODE = 3;
    public const int MNT_DETACH = 2;
    public const int O_PATH = 0x200000;       // the same on x86_64 and arm64
    public const int F_DUPFD_CLOEXEC = 1030;

    [LibraryImport("libc", EntryPoint = "statvfs", SetLastError = true)]
    public static partial int StatVfs(byte* path, void* buffer);

    [LibraryImport("libc", EntryPoint = "umount2", SetLastError = true)]
    public static partial int Umount2(byte* target, int flags);

    [LibraryImport("libc", EntryPoint = "opendir", SetLastError = true)]
    public static partial IntPtr OpenDir(byte* path);

    [LibraryImport("libc", EntryPoint = "closedir")]
    public static partial int CloseDir(IntPtr directory);

    [LibraryImport("libc", EntryPoint = "geteuid")]
    public static partial uint GetEuid();

    [LibraryImport("libc", EntryPoint = "getegid")]
    public static partial uint GetEgid();

    [LibraryImport("libc", EntryPoint = "fcntl", SetLastError = true)]
    public static partial int Fcntl(int fd, int command, int argument);

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    public static partial nint Read(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", EntryPoint = "write", SetLastError = true)]
    public static partial nint Write(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", EntryPoint = "socketpair", SetLastError = true)]
    public static partial int SocketPair(int domain, int type, int protocol, int* fds);

    [LibraryImport("libc", EntryPoint = "recvmsg", SetLastError = true)]
    public static partial nint RecvMsg(int socket, void* message, int flags);

    [LibraryImport("libc", EntryPoint = "mount", SetLastError = true)]
    public static partial int Mount(byte* source, byte* target, byte* type, nuint flags, byte* data);

    /// <summary>stat(2) of a managed path: 0 or the errno.</summary>
    public static int Stat(string path, Span<byte> buffer)
    {
        fixed (byte* b = buffer)
            return Core.Interop.LibC.Stat(path, b) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    /// <summary>statvfs(3) of a managed path into a caller's buffer (112 bytes on 64-bit glibc): 0 or the errno.</summary>
    public static int StatVfs(string path, Span<byte> buffer)
    {
        fixed (byte* p = Utf8Z(path))
        fixed (byte* b = buffer)
            return StatVfs(p, b) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    /// <summary>opendir(3) + closedir: 0 or the errno. On a FUSE mount this asks the server, unlike a cached stat.</summary>
    public static int ProbeDirectory(string path)
    {
        fixed (byte* p = Utf8Z(path))
        {
            var directory = OpenDir(p);
            if (directory == IntPtr.Zero)
                return Marshal.GetLastPInvokeError();
            CloseDir(directory);
            return 0;
        }
    }

    /// <summary>A NUL-terminated UTF-8 copy of <paramref name="text"/>.</summary>
    public static byte[] Utf8Z(string text)
    {
        var bytes = new byte[System.Text.Encoding.UTF8.GetByteCount(text) + 1];
        System.Text.Encoding.UTF8.GetBytes(text, bytes);
        return bytes;
    }
}
