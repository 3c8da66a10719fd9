using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The native entry points libfuse calls, on its own worker threads. Each converts the C arguments,
/// calls the one mounted <see cref="IFuseFileSystem"/>, and never lets an exception cross into C
/// (that would abort the process): an unexpected one is logged and answered with EIO.
/// </summary>
internal static unsafe class FuseCallbacks
{
    private static IFuseFileSystem? s_fs; // one mount per process: libfuse's high-level API has no per-call context we need

    private static IFuseFileSystem Fs => s_fs ?? throw new InvalidOperationException("no filesystem mounted");

    /// <summary>The operations table for <paramref name="fs"/>; write operations answer EROFS.</summary>
    public static FuseOperations Bind(IFuseFileSystem fs)
    {
        s_fs = fs;
        var readOnly = (IntPtr)(delegate* unmanaged[Cdecl]<int>)&ReadOnly;
        return new FuseOperations
        {
            GetAttr = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, byte*, FuseFileInfo*, int>)&GetAttr,
            Open = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, FuseFileInfo*, int>)&Open,
            Read = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, byte*, nuint, long, FuseFileInfo*, int>)&Read,
            Release = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, FuseFileInfo*, int>)&Release,
            ReadDir = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, IntPtr, IntPtr, long, FuseFileInfo*, int, int>)&ReadDir,
            StatFs = (IntPtr)(delegate* unmanaged[Cdecl]<byte*, byte*, int>)&StatFs,
            // The mount is "ro", so the kernel refuses writes before they arrive; these are a second line.
            MkNod = readOnly, MkDir = readOnly, Unlink = readOnly, RmDir = readOnly, Symlink = readOnly, Rename = readOnly,
            Link = readOnly, Chmod = readOnly, Chown = readOnly, Truncate = readOnly, Write = readOnly, Create = readOnly,
            Utimens = readOnly, SetXAttr = readOnly, RemoveXAttr = readOnly, Fallocate = readOnly,
        };
    }

    public static void Unbind() => s_fs = null;

    private static string PathOf(byte* path)
    {
        var span = MemoryMarshal.CreateReadOnlySpanFromNullTerminated(path);
        if (!span.IsEmpty && span[0] == (byte)'/')
            span = span[1..];
        return System.Text.Encoding.UTF8.GetString(span);
    }

    // Safe for any C signature: System V and AAPCS64 callers clean up, so unused arguments are harmless.
    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int ReadOnly() => -LibC.EROFS;

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int GetAttr(byte* path, byte* stat, FuseFileInfo* info)
    {
        string relative = "";
        try
        {
            relative = PathOf(path);
            int size = RuntimeInformation.ProcessArchitecture == Architecture.Arm64 ? 128 : 144;
            return Fs.GetAttr(relative, new Span<byte>(stat, size));
        }
        catch (Exception e)
        {
            return Fail("getattr", relative, e);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int Open(byte* path, FuseFileInfo* info)
    {
        string relative = "";
        try
        {
            relative = PathOf(path);
            var opened = Fs.Open(relative, info->Flags);
            if (opened.Errno != 0)
                return -opened.Errno;
            info->Handle = opened.Handle;
            info->KeepCache = opened.KeepCache;
            info->DirectIo = opened.DirectIo;
            return 0;
        }
        catch (Exception e)
        {
            return Fail("open", relative, e);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int Read(byte* path, byte* buffer, nuint size, long offset, FuseFileInfo* info)
    {
        try
        {
            return Fs.Read(info->Handle, offset, new Span<byte>(buffer, checked((int)size)));
        }
        catch (Exception e)
        {
            return Fail("read", path is null ? "" : PathOf(path), e);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int Release(byte* path, FuseFileInfo* info)
    {
        try
        {
            return Fs.Release(info->Handle);
        }
        catch (Exception e)
        {
            return Fail("release", path is null ? "" : PathOf(path), e);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int ReadDir(byte* path, IntPtr buffer, IntPtr filler, long offset, FuseFileInfo* info, int flags)
    {
        string relative = "";
        try
        {
            relative = PathOf(path);
            var names = Fs.ListDirectory(relative, out int error);
            if (names is null)
                return -error;
            var fill = (delegate* unmanaged[Cdecl]<IntPtr, byte*, void*, long, int, int>)filler;
            Span<byte> name = stackalloc byte[1024];
            foreach (var entry in (string[])[".", "..", .. names])
            {
                int length = System.Text.Encoding.UTF8.GetBytes(entry, name[..^1]);
                name[length] = 0;
                fixed (byte* p = name)
                    if (fill(buffer, p, null, 0, 0) != 0)
                        break; // the reply buffer is full; offset 0 means libfuse keeps the whole list itself
            }
            return 0;
        }
        catch (Exception e)
        {
            return Fail("readdir", relative, e);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int StatFs(byte* path, byte* statvfs)
    {
        try
        {
            return Fs.StatFs(new Span<byte>(statvfs, 112)); // sizeof(struct statvfs) on 64-bit glibc
        }
        catch (Exception e)
        {
            return Fail("statfs", "", e);
        }
    }

    private static int Fail(string operation, string path, Exception e)
    {
        s_fs?.Failed(operation, path, e);
        return -LibC.EIO;
    }
}
