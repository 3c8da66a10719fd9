using System.Runtime.InteropServices;
using Microsoft.Extensions.Logging;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>
/// A mount that speaks the FUSE protocol on /dev/fuse itself instead of through libfuse, so it can use FUSE
/// passthrough (Linux 6.9+): an open file whose bytes are a real file is handed to the kernel, which then
/// reads that file directly — at the speed of the filesystem below, in its large folios — and the host sees
/// no reads at all. libfuse 3.14 (Debian 12) cannot negotiate passthrough. As root it mounts with mount(2); a normal
/// user's mount is made by fusermount3, which hands back the /dev/fuse descriptor (<see cref="Fusermount"/>), and has
/// no passthrough (the backing-file ioctl needs CAP_SYS_ADMIN). Either way requests are answered here, up to 1 MiB
/// each; how large the kernel makes them follows the mount's read-ahead, which only root raises (ReadAhead).
/// </summary>
internal sealed unsafe partial class KernelMount : IMountSession
{
    private const int RequestBufferSize = 64 * 1024; // names and small structures: the mount is read-only, no write carries data
    private const int MaxReadPages = 256;              // 1 MiB per READ: fewer round trips on a stream
    private const int MaxRead = MaxReadPages * 4096;
    private const uint MsReadOnly = 1, MsNoSuid = 2, MsNoDev = 4;
    private static readonly TimeSpan CacheFor = TimeSpan.FromSeconds(5); // entry and attribute validity, as with libfuse's attr_timeout=5

    private readonly IFuseFileSystem _fs;
    private readonly string _mountPoint;
    private readonly bool _wantPassthrough;
    private readonly bool _allowOther;
    private readonly ILogger _logger;
    private readonly NodeTable _nodes = new();
    private readonly DirectoryHandles _directories = new();
    private int _fd = -1;
    private Thread[] _workers = [];
    private volatile bool _stopping;
    private volatile bool _passthrough;
    private int _backingFailureLogged;
    private readonly ManualResetEventSlim _initialized = new();
    private static readonly TimeSpan InitWait = TimeSpan.FromSeconds(10);

    private KernelMount(IFuseFileSystem fs, string mountPoint, bool passthrough, bool allowOther, ILogger logger)
    {
        _allowOther = allowOther;
        _fs = fs;
        _mountPoint = mountPoint;
        _wantPassthrough = passthrough;
        _logger = logger;
    }

    private readonly UnexpectedEnd _ended = new();

    public void OnEndedUnexpectedly(Action<int> handler) => _ended.Handle(handler);

    /// <summary>Whether this process mounts with mount(2) and may pass files through (root: both need CAP_SYS_ADMIN).</summary>
    public static bool MountsDirectly => LibC.GetEuid() == 0;

    /// <summary>Whether this process can mount this way: as root, or as a normal user through fusermount3.</summary>
    public static bool CanMount => MountsDirectly || Fusermount.Program is not null;

    /// <summary>
    /// Mounts <paramref name="fs"/> read-only at <paramref name="mountPoint"/> and starts <paramref name="threads"/>
    /// workers; with <paramref name="allowOther"/> other users may use it too (file modes still apply). Throws
    /// <see cref="IOException"/> naming the mount point and the reason on failure.
    /// </summary>
    public static KernelMount Start(IFuseFileSystem fs, string mountPoint, bool passthrough, int threads, ILogger logger, bool allowOther = false)
    {
        var mount = new KernelMount(fs, mountPoint, passthrough, allowOther, logger);
        try
        {
            mount.Mount();
            mount._workers = Enumerable.Range(0, threads)
                .Select(i => new Thread(mount.Serve) { Name = $"fuse worker {i}", IsBackground = true })
                .ToArray();
            foreach (var worker in mount._workers)
                worker.Start();
            // The kernel sends INIT once mounted; until it is answered every access to the mount waits, and whether
            // passthrough was agreed is unknown. Answering takes microseconds: a long wait means the workers are stuck.
            if (!mount._initialized.Wait(InitWait))
                throw new IOException($"{mountPoint}: mounted, but the kernel's INIT request never arrived");
            return mount;
        }
        catch
        {
            mount.Dispose();
            throw;
        }
    }

    private void Mount()
    {
        if (!MountsDirectly)
        {
            _fd = Fusermount.Mount(_mountPoint, "ro,nosuid,nodev,default_permissions,fsname=archiveemu,subtype=archiveemu" + (_allowOther ? ",allow_other" : ""));
            return;
        }
        _fd = Core.Interop.LibC.Open("/dev/fuse", LibC.O_RDWR | LibC.O_CLOEXEC);
        if (_fd < 0)
        {
            var why = Errno.Describe(Marshal.GetLastPInvokeError());
            throw new IOException($"/dev/fuse: cannot open it ({why})" + (DevFuseAccess.IsRefusal($"/dev/fuse {why}") ? $"; {DevFuseAccess.Fix()}" : ""));
        }
        // Options as libfuse would pass them for "-o ro,default_permissions,fsname=archiveemu,subtype=archiveemu".
        string data = $"fd={_fd},rootmode=40000,user_id={LibC.GetEuid()},group_id={LibC.GetEgid()},default_permissions"
                      + (_allowOther ? ",allow_other" : "");
        fixed (byte* source = LibC.Utf8Z("archiveemu"))
        fixed (byte* target = LibC.Utf8Z(_mountPoint))
        fixed (byte* type = LibC.Utf8Z("fuse.archiveemu"))
        fixed (byte* options = LibC.Utf8Z(data))
            if (LibC.Mount(source, target, type, MsReadOnly | MsNoSuid | MsNoDev, options) != 0)
                throw new IOException($"{_mountPoint}: mount(2) failed ({Errno.Describe(Marshal.GetLastPInvokeError())})");
    }

    /// <summary>Whether the kernel agreed passthrough (known once the mount is up).</summary>
    public bool PassesThrough => _passthrough;

    public string Describe() => _passthrough ? "FUSE protocol, passthrough on" :
        !MountsDirectly ? "FUSE protocol through fusermount3, reads through the page cache" :
        _wantPassthrough ? "FUSE protocol, passthrough not offered by this kernel" : "FUSE protocol, passthrough off";

    /// <summary>Whether the kernel agreed to passthrough at INIT (false until the first request is answered).</summary>
    public bool PassthroughActive => _passthrough;

    private void Serve()
    {
        var request = GC.AllocateArray<byte>(RequestBufferSize, pinned: true);
        var reply = GC.AllocateArray<byte>(FuseWire.OutHeaderSize + MaxRead, pinned: true);
        fixed (byte* buffer = request)
        {
            while (!_stopping)
            {
                nint read = LibC.Read(_fd, buffer, (nuint)request.Length);
                if (read < 0)
                {
                    int error = Marshal.GetLastPInvokeError();
                    if (error is LibC.EINTR or LibC.EAGAIN or LibC.ENOENT) // ENOENT: the request was interrupted before we got it
                        continue;
                    if (error != LibC.ENODEV)
                        _logger.LogWarning("/dev/fuse: reading a request failed ({Error}); this worker stops", Errno.Describe(error));
                    break; // ENODEV: unmounted
                }
                if (read >= FuseWire.InHeaderSize) // anything shorter is not a request: the kernel never sends one
                    Handle(request.AsSpan(0, (int)read), reply);
            }
        }
        if (!_stopping)
            _ended.Report(0);
    }

    /// <summary>Sends one reply or notification; a request the kernel gave up on (ENOENT) needs none.</summary>
    private void Send(ReadOnlySpan<byte> message)
    {
        fixed (byte* bytes = message)
        {
            if (LibC.Write(_fd, bytes, (nuint)message.Length) >= 0)
                return;
        }
        int error = Marshal.GetLastPInvokeError();
        if (error != LibC.ENOENT && !_stopping && _logger.IsEnabled(LogLevel.Debug))
            _logger.LogDebug("/dev/fuse: a reply was refused ({Error})", Errno.Describe(error));
    }

    private void ReplyError(ulong unique, int errno)
    {
        Span<byte> header = stackalloc byte[FuseWire.OutHeaderSize];
        FuseWire.OutHeader(header, header.Length, -errno, unique);
        Send(header);
    }

    private void Reply(ulong unique, ReadOnlySpan<byte> payload)
    {
        Span<byte> message = stackalloc byte[FuseWire.OutHeaderSize + payload.Length];
        FuseWire.OutHeader(message, message.Length, 0, unique);
        payload.CopyTo(message[FuseWire.OutHeaderSize..]);
        Send(message);
    }

    public void Invalidate(string relativePath)
    {
        if (_fd < 0 || _stopping)
            return;
        var node = _nodes.AtPath(relativePath);
        if (node is null)
            return; // never looked up, or already gone: the kernel holds nothing for it
        bool hasOpenFiles;
        IReadOnlyList<string> spellings;
        lock (_nodes.Lock)
        {
            hasOpenFiles = node.OpenFiles > 0;
            spellings = node.Spellings;
        }
        // Open files keep the version they opened, with its size; the path's next lookup gets a node of its own,
        // so the kernel never applies a new size to an old file, or hands a new open the old one's backing file.
        if (hasOpenFiles)
            _nodes.Detach(node);
        NotifyInvalInode(node.Id);
        foreach (var name in spellings)
            NotifyInvalEntry(node.Parent, name);
    }

    private void NotifyInvalInode(ulong node)
    {
        Span<byte> message = stackalloc byte[FuseWire.OutHeaderSize + 24];
        FuseWire.OutHeader(message, message.Length, FuseWire.NotifyInvalInode, 0);
        FuseWire.Write64(message, 16, node);
        FuseWire.Write64(message, 24, 0); // from offset 0
        FuseWire.Write64(message, 32, 0); // length 0: to the end
        Send(message);
    }

    private void NotifyInvalEntry(ulong parent, string name)
    {
        var bytes = System.Text.Encoding.UTF8.GetBytes(name);
        var message = new byte[FuseWire.OutHeaderSize + 16 + bytes.Length + 1];
        FuseWire.OutHeader(message, message.Length, FuseWire.NotifyInvalEntry, 0);
        FuseWire.Write64(message, 16, parent);
        FuseWire.Write32(message, 24, (uint)bytes.Length);
        bytes.CopyTo(message, 32);
        Send(message);
    }

    public bool Stop(TimeSpan wait)
    {
        _stopping = true;
        if (_fd < 0)
            return true;
        // Unmounting ends the connection once nothing uses the mount: each worker's read then fails with ENODEV.
        MountPointState.DetachLazily(_mountPoint);
        var deadline = DateTime.UtcNow + wait;
        bool ended = _workers.All(w => w.Join(Max(deadline - DateTime.UtcNow, TimeSpan.Zero)));
        if (ended)
            Dispose();
        return ended;
    }

    private static TimeSpan Max(TimeSpan a, TimeSpan b) => a > b ? a : b;

    public void Dispose()
    {
        if (_fd >= 0)
        {
            MountPointState.DetachLazily(_mountPoint); // a no-op when already detached
            Core.Interop.LibC.Close(_fd);
            _fd = -1;
        }
    }
}

/// <summary>strerror-like text for an errno, for one-line messages.</summary>
internal static class Errno
{
    public static string Describe(int errno) => $"{new System.ComponentModel.Win32Exception(errno).Message}, errno {errno}";
}
