using System.Runtime.InteropServices;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// One libfuse3 mount: created and mounted by <see cref="Start"/>, served by libfuse's multi-threaded
/// loop on a thread of its own, and taken down by <see cref="Stop"/> (exit flag, lazy unmount, join, destroy).
/// </summary>
internal sealed unsafe class FuseMount : IMountSession
{
    private readonly string _mountPoint;
    private IntPtr _fuse;
    private FuseOperations* _operations;
    private byte** _argv;
    private int _argc;
    private Thread? _loop;
    private int _loopResult;
    private volatile bool _stopping;

    private FuseMount(string mountPoint) => _mountPoint = mountPoint;

    private readonly UnexpectedEnd _ended = new();

    /// <summary>The handler runs on the loop thread when the loop ends without <see cref="Stop"/>: someone unmounted us.</summary>
    public void OnEndedUnexpectedly(Action<int> handler) => _ended.Handle(handler);

    /// <summary>
    /// Mounts <paramref name="fs"/> read-only at <paramref name="mountPoint"/> with <paramref name="options"/>
    /// (a fuse -o list) and starts serving. Throws <see cref="IOException"/> with libfuse's reason on failure.
    /// </summary>
    public static FuseMount Start(IFuseFileSystem fs, string mountPoint, string options, uint maxThreads)
    {
        var mount = new FuseMount(mountPoint);
        try
        {
            mount.Create(fs, options);
            fixed (byte* path = LibC.Utf8Z(mountPoint))
                if (LibFuse.Mount(mount._fuse, path) != 0)
                    throw new IOException($"{mountPoint}: libfuse could not mount here (see its message above)");
            mount._loop = new Thread(() => mount.Loop(maxThreads)) { Name = "fuse loop", IsBackground = true };
            mount._loop.Start();
            return mount;
        }
        catch
        {
            mount.Dispose();
            throw;
        }
    }

    private void Create(IFuseFileSystem fs, string options)
    {
        string[] args = ["archiveemu", "-o", options];
        _argc = args.Length;
        _argv = (byte**)NativeMemory.AllocZeroed((nuint)(args.Length + 1), (nuint)sizeof(byte*));
        for (int i = 0; i < args.Length; i++)
        {
            var bytes = LibC.Utf8Z(args[i]);
            _argv[i] = (byte*)NativeMemory.Alloc((nuint)bytes.Length);
            bytes.CopyTo(new Span<byte>(_argv[i], bytes.Length));
        }
        _operations = (FuseOperations*)NativeMemory.AllocZeroed((nuint)sizeof(FuseOperations));
        *_operations = FuseCallbacks.Bind(fs);
        var fuseArgs = new LibFuse.Args { Argc = _argc, Argv = _argv, Allocated = 0 };
        _fuse = LibFuse.New(&fuseArgs, _operations, (nuint)sizeof(FuseOperations), IntPtr.Zero);
        if (_fuse == IntPtr.Zero)
            throw new IOException($"libfuse refused the mount options '{options}' (see its message above)");
    }

    private void Loop(uint maxThreads)
    {
        var config = LibFuse.LoopConfigCreate();
        LibFuse.LoopConfigSetMaxThreads(config, maxThreads);
        LibFuse.LoopConfigSetIdleThreads(config, maxThreads); // keep workers: thread start-up is not free under load
        _loopResult = LibFuse.LoopMultiThreaded(_fuse, config);
        LibFuse.LoopConfigDestroy(config);
        if (!_stopping)
            _ended.Report(_loopResult);
    }

    public string Describe() => "libfuse, reads through the page cache";

    /// <summary>Drops the kernel's cache of <paramref name="relativePath"/> (attributes and pages); errors are ignored.</summary>
    public void Invalidate(string relativePath)
    {
        if (_fuse == IntPtr.Zero || _stopping)
            return;
        fixed (byte* path = LibC.Utf8Z("/" + relativePath))
            LibFuse.InvalidatePath(_fuse, path); // -ENOENT when the kernel never looked it up: nothing cached
    }

    /// <summary>
    /// Stops serving and unmounts. Returns false if the loop did not end within <paramref name="wait"/>
    /// (a process still blocked in the mount); the lazy unmount has been done either way.
    /// </summary>
    public bool Stop(TimeSpan wait)
    {
        _stopping = true;
        if (_fuse == IntPtr.Zero)
            return true;
        LibFuse.Exit(_fuse);
        // Detach the mount ourselves: the kernel then ends the connection and libfuse's workers, blocked
        // reading /dev/fuse, return. fuse_unmount would close that fd under them first.
        MountPointState.DetachLazily(_mountPoint);
        bool ended = _loop is null || _loop.Join(wait);
        if (ended)
            Dispose();
        return ended;
    }

    public void Dispose()
    {
        if (_fuse != IntPtr.Zero)
        {
            LibFuse.Unmount(_fuse); // closes the session fd; a no-op unmount if already detached
            LibFuse.Destroy(_fuse);
            _fuse = IntPtr.Zero;
        }
        FuseCallbacks.Unbind();
        if (_operations is not null)
        {
            NativeMemory.Free(_operations);
            _operations = null;
        }
        if (_argv is not null)
        {
            for (int i = 0; i < _argc; i++)
                NativeMemory.Free(_argv[i]);
            NativeMemory.Free(_argv);
            _argv = null;
        }
    }
}
