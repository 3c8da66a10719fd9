using System.Runtime.InteropServices;
using Microsoft.Extensions.Logging;
using static ArchiveEmu.Host.Fuse.Kernel.FuseWire;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>
/// Opening, reading and closing files and directories. The kernel insists that every open file of an inode that
/// is passed through uses the same backing file, and that passed-through and page-cached opens never overlap;
/// opens that would break either rule are answered ESTALE, which makes the kernel look the path up again
/// (and get the node of the current version).
/// </summary>
internal sealed unsafe partial class KernelMount
{
    private void Open(InHeader header, int flags)
    {
        var node = _nodes.Get(header.Node);
        if (node is null || node.Detached)
        {
            ReplyError(header.Unique, node is null ? LibC.ENOENT : LibC.ESTALE);
            return;
        }
        var opened = _fs.Open(node.Path, flags);
        if (opened.Errno != 0)
        {
            ReplyError(header.Unique, opened.Errno);
            return;
        }
        int backingId;
        try
        {
            var version = _fs.VersionOf(opened.Handle);
            backingId = _passthrough ? ChooseBacking(node, version, _fs.BackingOf(opened.Handle)) : CountOpen(node, version);
        }
        catch
        {
            _fs.Release(opened.Handle); // the kernel gets EIO and never sends RELEASE for a handle it did not receive
            throw;
        }
        if (backingId < 0)
        {
            _fs.Release(opened.Handle);
            ReplyError(header.Unique, LibC.ESTALE);
            return;
        }
        if (_logger.IsEnabled(LogLevel.Debug))
            _logger.LogDebug("open {Path}: {How}", node.Path, backingId > 0 ? $"passthrough (backing file {backingId})" : "served by the host");
        uint openFlags = backingId > 0 ? OpenPassthrough
            : (opened.KeepCache ? OpenKeepCache : 0) | (opened.DirectIo ? OpenDirectIo : 0);
        Span<byte> open = stackalloc byte[OpenOutSize];
        Write64(open, 0, opened.Handle);
        Write32(open, 8, openFlags);
        Write32(open, 12, (uint)backingId);
        Reply(header.Unique, open);
    }

    private int CountOpen(Node node, FileVersion? version)
    {
        lock (_nodes.Lock)
        {
            if (!Admits(node, version) || node.BackingId > 0)
                return -1;
            node.OpenFiles++;
            return 0;
        }
    }

    /// <summary>
    /// Whether an open of <paramref name="version"/> may join <paramref name="node"/>: the node describes that version
    /// (its size is that version's, its cached pages are only ever that version's). If not, the node is detached: the
    /// path moved on since the kernel looked it up, and its retry after ESTALE gets a node for the new version.
    /// Caller holds the node lock; on success the node is this version's.
    /// </summary>
    private bool Admits(Node node, FileVersion? version)
    {
        if (node.Detached)
            return false;
        if (!NodeTable.SameVersion(node.Version, version))
        {
            _nodes.Detach(node);
            return false;
        }
        node.Version ??= version;
        return true;
    }

    /// <summary>
    /// The backing id to answer an open of <paramref name="node"/> with: the node's current one when it holds the
    /// same version, a new one when the node has no open file, 0 to serve through the page cache instead, or -1
    /// when the node cannot take this open (ESTALE). Counts the open unless -1.
    /// </summary>
    private int ChooseBacking(Node node, FileVersion? version, BackingSource? backing)
    {
        lock (_nodes.Lock)
        {
            if (!Admits(node, version))
                return -1;
            if (node.BackingId > 0)
            {
                if (!Equals(node.BackingKey, backing?.Key))
                {
                    // Another version is passed through on this node (the path changed while it was open and no reload
                    // has detached it yet): the kernel's retry after ESTALE looks the path up again and gets a new node.
                    _nodes.Detach(node);
                    return -1;
                }
                node.OpenFiles++;
                return node.BackingId;
            }
            if (backing is null || node.OpenFiles > 0) // page-cached opens are running: this one joins them
            {
                node.OpenFiles++;
                return 0;
            }
            int id = RegisterBacking(node.Path, backing);
            if (id < 0)
                return -1;
            node.OpenFiles++;
            if (id > 0)
            {
                node.BackingId = id;
                node.BackingKey = backing.Key;
            }
            return id;
        }
    }

    /// <summary>Hands the backing file to the kernel: its id, 0 if the kernel refused (serve it ourselves), -1 if it changed.</summary>
    private int RegisterBacking(string path, BackingSource backing)
    {
        Microsoft.Win32.SafeHandles.SafeFileHandle file;
        try
        {
            file = backing.Open();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            _logger.LogDebug("passthrough {Path}: {Message}", path, e.Message);
            return -1;
        }
        try
        {
            Span<byte> map = stackalloc byte[16]; // struct fuse_backing_map: fd, flags, padding
            map.Clear();
            Write32(map, 0, (uint)file.DangerousGetHandle());
            int id;
            fixed (byte* argument = map)
                id = Core.Interop.LibC.Ioctl(_fd, BackingOpen, argument);
            if (id > 0)
                return id;
            int error = Marshal.GetLastPInvokeError();
            if (Interlocked.Exchange(ref _backingFailureLogged, 1) == 0)
                _logger.LogWarning("passthrough {Path}: the kernel refused the backing file ({Error}); serving reads from the host instead", path, Errno.Describe(error));
            return 0;
        }
        finally
        {
            if (backing.CallerDisposes)
                file.Dispose(); // the kernel holds its own reference to the open file
        }
    }

    private void Read(InHeader header, ReadOnlySpan<byte> body, byte[] reply)
    {
        ulong handle = Read64(body, 0);
        long offset = (long)Read64(body, 8);
        int size = (int)Math.Min(Read32(body, 16), (uint)(reply.Length - OutHeaderSize));
        int read = _fs.Read(handle, offset, reply.AsSpan(OutHeaderSize, size));
        if (read < 0)
        {
            ReplyError(header.Unique, -read);
            return;
        }
        OutHeader(reply, OutHeaderSize + read, 0, header.Unique);
        Send(reply.AsSpan(0, OutHeaderSize + read));
    }

    private void Release(InHeader header, ulong handle)
    {
        _fs.Release(handle);
        int closeId = 0;
        if (_nodes.Get(header.Node) is { } node)
        {
            lock (_nodes.Lock)
            {
                node.OpenFiles = Math.Max(0, node.OpenFiles - 1);
                if (node.OpenFiles == 0 && node.BackingId > 0)
                {
                    closeId = node.BackingId;
                    node.BackingId = 0;
                    node.BackingKey = null;
                }
                _nodes.RemoveIfUnused(node);
            }
        }
        if (closeId > 0)
        {
            uint id = (uint)closeId;
            Core.Interop.LibC.Ioctl(_fd, BackingClose, &id); // files already open keep their backing file; only the id goes
        }
        ReplyError(header.Unique, 0);
    }

    private void OpenDir(InHeader header)
    {
        var node = _nodes.Get(header.Node);
        if (node is null)
        {
            ReplyError(header.Unique, LibC.ENOENT);
            return;
        }
        var names = _fs.ListDirectory(node.Path, out int error);
        if (names is null)
        {
            ReplyError(header.Unique, error);
            return;
        }
        Span<byte> open = stackalloc byte[OpenOutSize];
        open.Clear();
        Write64(open, 0, _directories.Add([".", "..", .. names]));
        Reply(header.Unique, open);
    }

    /// <summary>Entries from index <c>offset</c> on, as many struct fuse_dirent as fit in the size asked for.</summary>
    private void ReadDir(InHeader header, ReadOnlySpan<byte> body, byte[] reply)
    {
        var names = _directories.Get(Read64(body, 0));
        if (names is null)
        {
            ReplyError(header.Unique, LibC.EIO);
            return;
        }
        long index = (long)Read64(body, 8);
        int limit = (int)Math.Min(Read32(body, 16), (uint)(reply.Length - OutHeaderSize));
        int used = OutHeaderSize;
        for (; index >= 0 && index < names.Length; index++)
        {
            var name = System.Text.Encoding.UTF8.GetBytes(names[index]);
            int size = (24 + name.Length + 7) & ~7;
            if (used - OutHeaderSize + size > limit)
                break;
            var entry = reply.AsSpan(used, size);
            entry.Clear();
            Write64(entry, 0, 0xffffffff);          // ino unknown, as libfuse reports it: stat gives the real one
            Write64(entry, 8, (ulong)(index + 1));  // the offset of the next entry
            Write32(entry, 16, (uint)name.Length);
            name.CopyTo(entry[24..]);                // type 0 (DT_UNKNOWN): readers stat when they care
            used += size;
        }
        OutHeader(reply, used, 0, header.Unique);
        Send(reply.AsSpan(0, used));
    }
}

/// <summary>The listings of open directories, taken at opendir so paging through one is consistent.</summary>
internal sealed class DirectoryHandles
{
    private readonly System.Collections.Concurrent.ConcurrentDictionary<ulong, string[]> _open = new();
    private long _next;

    public ulong Add(string[] names)
    {
        ulong id = (ulong)Interlocked.Increment(ref _next);
        _open[id] = names;
        return id;
    }

    public string[]? Get(ulong id) => _open.GetValueOrDefault(id);

    public void Remove(ulong id) => _open.TryRemove(id, out _);
}
