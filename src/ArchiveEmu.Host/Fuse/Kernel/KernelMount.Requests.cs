using Microsoft.Extensions.Logging;
using static ArchiveEmu.Host.Fuse.Kernel.FuseWire;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>The requests: each is answered exactly once (FORGET and INTERRUPT never), and no exception leaves a worker.</summary>
internal sealed unsafe partial class KernelMount
{
    private const int StatSize = 256; // more than struct stat on x86_64 (144) and arm64 (128)
    private const int StatVfsSize = 112;

    private void Handle(Span<byte> request, byte[] reply)
    {
        var header = new InHeader(request);
        var body = request[InHeaderSize..(int)Math.Clamp(header.Length, (uint)InHeaderSize, (uint)request.Length)];
        try
        {
            switch (header.Opcode)
            {
                case Opcode.Init: Init(header.Unique, body); break;
                case Opcode.Lookup: Lookup(header, Name(body)); break;
                case Opcode.Forget: _nodes.Forget(header.Node, Read64(body, 0)); break;
                case Opcode.BatchForget: BatchForget(body); break;
                case Opcode.GetAttr: GetAttr(header); break;
                case Opcode.Open: Open(header, (int)Read32(body, 0)); break;
                case Opcode.Read: Read(header, body, reply); break;
                case Opcode.Release: Release(header, Read64(body, 0)); break;
                case Opcode.OpenDir: OpenDir(header); break;
                case Opcode.ReadDir: ReadDir(header, body, reply); break;
                case Opcode.ReleaseDir: _directories.Remove(Read64(body, 0)); ReplyError(header.Unique, 0); break;
                case Opcode.StatFs: StatFs(header.Unique); break;
                case Opcode.Interrupt: break; // every request here is short; the reply that follows is enough
                case Opcode.Destroy: ReplyError(header.Unique, 0); break;
                case Opcode.SetAttr or Opcode.Symlink or Opcode.MkNod or Opcode.MkDir or Opcode.Unlink or Opcode.RmDir
                    or Opcode.Rename or Opcode.Rename2 or Opcode.Link or Opcode.Write or Opcode.SetXAttr or Opcode.RemoveXAttr
                    or Opcode.Create or Opcode.Fallocate or Opcode.CopyFileRange or Opcode.TmpFile:
                    ReplyError(header.Unique, LibC.EROFS); // the mount is "ro": the kernel refuses these first; a second line
                    break;
                default:
                    ReplyError(header.Unique, LibC.ENOSYS); // xattrs, flush, fsync, locks, access…: the kernel stops asking
                    break;
            }
        }
        catch (Exception e)
        {
            string path = _nodes.Get(header.Node)?.Path ?? "";
            if (header.Opcode == Opcode.Lookup)
                path = path.Length == 0 ? Name(body) : $"{path}/{Name(body)}";
            _fs.Failed(header.Opcode.ToString().ToLowerInvariant(), path, e);
            if (header.Opcode is not (Opcode.Forget or Opcode.BatchForget or Opcode.Interrupt))
                ReplyError(header.Unique, LibC.EIO);
        }
    }

    private void Init(ulong unique, ReadOnlySpan<byte> body)
    {
        uint major = Read32(body, 0), minor = Read32(body, 4), maxReadahead = Read32(body, 8);
        ulong offered = Read32(body, 12);
        if (major < Major)
        {
            _logger.LogError("/dev/fuse: kernel speaks FUSE {Major}.{Minor}; {Ours}.x is needed", major, minor, Major);
            ReplyError(unique, 71); // EPROTO
            _initialized.Set();
            return;
        }
        if ((offered & InitExt) != 0 && body.Length >= 20)
            offered |= (ulong)Read32(body, 16) << 32;
        ulong wanted = AsyncRead | AutoInvalData | AsyncDio | ParallelDirOps | MaxPagesFlag | InitExt;
        if (_wantPassthrough && MountsDirectly)
            wanted |= Passthrough;
        ulong agreed = wanted & offered;

        Span<byte> init = stackalloc byte[InitOutSize];
        init.Clear();
        Write32(init, 0, Major);
        Write32(init, 4, Minor);
        Write32(init, 8, maxReadahead); // the kernel's own limit; the host raises the mount's read-ahead in sysfs
        Write32(init, 12, (uint)agreed);
        Write32(init, 20, 4096);        // max_write: nothing is written
        Write32(init, 24, 1);           // time_gran: nanoseconds
        Write16(init, 28, MaxReadPages);
        Write32(init, 32, (uint)(agreed >> 32));
        Write32(init, 36, (agreed & Passthrough) != 0 ? MaxStackDepth : 0);
        _passthrough = (agreed & Passthrough) != 0;
        Reply(unique, init);
        _initialized.Set();
    }

    private void Lookup(InHeader header, string name)
    {
        var parent = _nodes.Get(header.Node);
        if (parent is null)
        {
            ReplyError(header.Unique, LibC.ENOENT);
            return;
        }
        string asked = parent.Path.Length == 0 ? name : parent.Path + "/" + name;
        Span<byte> stat = stackalloc byte[StatSize];
        int result = _fs.Lookup(asked, stat, out var version, out string path);
        if (result < 0)
        {
            ReplyError(header.Unique, -result);
            return;
        }
        // Another spelling (ignore-case) is the real path's node: the kernel then holds two dentries for one inode.
        var node = _nodes.LookedUp(parent, path[(path.LastIndexOf('/') + 1)..], path, version, asked: name);
        var attr = new byte[AttrSize];
        Attr(stat, node.Id, attr);
        node.LastAttr = attr;
        Span<byte> entry = stackalloc byte[EntryOutSize];
        entry.Clear();
        Write64(entry, 0, node.Id);
        Write64(entry, 16, (ulong)CacheFor.TotalSeconds); // entry_valid
        Write64(entry, 24, (ulong)CacheFor.TotalSeconds); // attr_valid
        attr.CopyTo(entry[40..]);
        Reply(header.Unique, entry);
    }

    private void BatchForget(ReadOnlySpan<byte> body)
    {
        uint count = Read32(body, 0);
        for (int i = 0; i < count && 8 + (i + 1) * 16 <= body.Length; i++)
            _nodes.Forget(Read64(body, 8 + i * 16), Read64(body, 16 + i * 16));
    }

    private void GetAttr(InHeader header)
    {
        var node = _nodes.Get(header.Node);
        if (node is null)
        {
            ReplyError(header.Unique, LibC.ENOENT);
            return;
        }
        Span<byte> attrOut = stackalloc byte[AttrOutSize];
        attrOut.Clear();
        Write64(attrOut, 0, (ulong)CacheFor.TotalSeconds);
        if (Pinned(node) is { } pinned)
            pinned.CopyTo(attrOut[16..]);
        else
        {
            Span<byte> stat = stackalloc byte[StatSize];
            int result = _fs.GetAttr(node.Path, stat, out var version);
            if (result < 0)
            {
                ReplyError(header.Unique, -result);
                return;
            }
            var attr = new byte[AttrSize];
            Attr(stat, node.Id, attr);
            lock (_nodes.Lock)
            {
                if (_nodes.Describes(node, version)) // else the path moved on under open files: they keep this node and its attributes
                    node.LastAttr = attr;
            }
            (Pinned(node) ?? attr).CopyTo(attrOut[16..]);
        }
        Reply(header.Unique, attrOut);
    }

    // A replaced version keeps its own size for the files still reading it.
    private static byte[]? Pinned(Node node) => node.Detached ? node.LastAttr : null;

    private void StatFs(ulong unique)
    {
        Span<byte> statvfs = stackalloc byte[StatVfsSize];
        int result = _fs.StatFs(statvfs);
        if (result < 0)
        {
            ReplyError(unique, -result);
            return;
        }
        Span<byte> kstatfs = stackalloc byte[StatFsOutSize];
        FuseWire.StatFs(statvfs, kstatfs);
        Reply(unique, kstatfs);
    }
}
