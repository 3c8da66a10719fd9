using System.Runtime.InteropServices;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The libfuse3 high-level API, bound at run time to libfuse3.so.3 (Debian <c>libfuse3-3</c>; no native
/// build step). Versioned entry points are named explicitly so a newer library keeps the ABI we laid out.
/// </summary>
internal static unsafe partial class LibFuse
{
    public const string Library = "libfuse3.so.3";

    /// <summary>Whether libfuse3 (<paramref name="library"/>: another name only in tests) can be loaded here, and if not, why.</summary>
    public static string? Unavailable(string library = Library)
    {
        if (!NativeLibrary.TryLoad(library, out var handle))
            return $"{library} not found: install libfuse3 (Debian/Ubuntu: apt-get install fuse3 libfuse3-3)";
        try
        {
            foreach (var symbol in new[] { "fuse_new_31", "fuse_loop_mt_312", "fuse_loop_cfg_create", "fuse_invalidate_path" })
                if (!NativeLibrary.TryGetExport(handle, symbol, out _))
                    return $"{library} lacks {symbol}: libfuse 3.12 or newer is needed";
        }
        finally
        {
            NativeLibrary.Free(handle);
        }
        return null;
    }

    /// <summary>struct fuse_args.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Args
    {
        public int Argc;
        public byte** Argv;
        public int Allocated;
    }

    [LibraryImport(Library, EntryPoint = "fuse_new_31")]
    public static partial IntPtr New(Args* args, FuseOperations* operations, nuint operationsSize, IntPtr userData);

    [LibraryImport(Library, EntryPoint = "fuse_mount")]
    public static partial int Mount(IntPtr fuse, byte* mountPoint);

    [LibraryImport(Library, EntryPoint = "fuse_loop_cfg_create")]
    public static partial IntPtr LoopConfigCreate();

    [LibraryImport(Library, EntryPoint = "fuse_loop_cfg_set_max_threads")]
    public static partial void LoopConfigSetMaxThreads(IntPtr config, uint maxThreads);

    [LibraryImport(Library, EntryPoint = "fuse_loop_cfg_set_idle_threads")]
    public static partial void LoopConfigSetIdleThreads(IntPtr config, uint idleThreads);

    [LibraryImport(Library, EntryPoint = "fuse_loop_cfg_destroy")]
    public static partial void LoopConfigDestroy(IntPtr config);

    /// <summary>Serves requests on a pool of native threads until the session exits or the mount goes away.</summary>
    [LibraryImport(Library, EntryPoint = "fuse_loop_mt_312")]
    public static partial int LoopMultiThreaded(IntPtr fuse, IntPtr config);

    [LibraryImport(Library, EntryPoint = "fuse_exit")]
    public static partial void Exit(IntPtr fuse);

    [LibraryImport(Library, EntryPoint = "fuse_unmount")]
    public static partial void Unmount(IntPtr fuse);

    [LibraryImport(Library, EntryPoint = "fuse_destroy")]
    public static partial void Destroy(IntPtr fuse);

    /// <summary>Drops the kernel's cached attributes and pages of a path (used after a hot reload).</summary>
    [LibraryImport(Library, EntryPoint = "fuse_invalidate_path")]
    public static partial int InvalidatePath(IntPtr fuse, byte* path);
}
