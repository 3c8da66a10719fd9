using System.Buffers.Binary;
using System.Runtime.InteropServices;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>
/// The FUSE kernel protocol as this server speaks it (Linux include/uapi/linux/fuse.h, protocol 7.40+):
/// opcodes, flags and the byte offsets of the few structures it reads and writes. Structures are in the
/// machine's byte order; every supported machine (x86_64, arm64) is little-endian.
/// </summary>
internal static class FuseWire
{
    public const uint Major = 7;
    public const uint Minor = 40; // 7.40 added passthrough (FUSE_PASSTHROUGH, backing ids); init_out is 64 bytes since 7.23

    public const int InHeaderSize = 40;  // len u32, opcode u32, unique u64, nodeid u64, uid, gid, pid u32, total_extlen u16, pad u16
    public const int OutHeaderSize = 16; // len u32, error i32, unique u64
    public const int AttrSize = 88;
    public const int EntryOutSize = 40 + AttrSize;
    public const int AttrOutSize = 16 + AttrSize;
    public const int OpenOutSize = 16;   // fh u64, open_flags u32, backing_id i32
    public const int InitOutSize = 64;
    public const int StatFsOutSize = 80;
    public const ulong RootNode = 1;

    public enum Opcode : uint
    {
        Lookup = 1, Forget = 2, GetAttr = 3, SetAttr = 4, ReadLink = 5, Symlink = 6, MkNod = 8, MkDir = 9,
        Unlink = 10, RmDir = 11, Rename = 12, Link = 13, Open = 14, Read = 15, Write = 16, StatFs = 17,
        Release = 18, Fsync = 20, SetXAttr = 21, GetXAttr = 22, ListXAttr = 23, RemoveXAttr = 24, Flush = 25,
        Init = 26, OpenDir = 27, ReadDir = 28, ReleaseDir = 29, FsyncDir = 30, Access = 34, Create = 35,
        Interrupt = 36, Destroy = 38, BatchForget = 42, Fallocate = 43, Rename2 = 45, CopyFileRange = 47,
        TmpFile = 51,
    }

    // fuse_init flags (the high 32 bits travel in flags2).
    public const ulong AsyncRead = 1UL << 0;
    public const ulong AutoInvalData = 1UL << 12;
    public const ulong AsyncDio = 1UL << 15;
    public const ulong ParallelDirOps = 1UL << 18;
    public const ulong MaxPagesFlag = 1UL << 22;
    public const ulong InitExt = 1UL << 30;
    public const ulong Passthrough = 1UL << 37;

    // fuse_open_out.open_flags
    public const uint OpenDirectIo = 1 << 0;
    public const uint OpenKeepCache = 1 << 1;
    public const uint OpenPassthrough = 1 << 7;

    // Notifications: an out header with unique 0 and the code in the error field.
    public const int NotifyInvalInode = 2;
    public const int NotifyInvalEntry = 3;

    // ioctls on /dev/fuse: _IOW(229, 1, struct fuse_backing_map) and _IOW(229, 2, uint32_t).
    public const nuint BackingOpen = 0x4010E501;
    public const nuint BackingClose = 0x4004E502;

    /// <summary>How deep backing files may stack under this mount: 1 = they live on ordinary filesystems.</summary>
    public const uint MaxStackDepth = 1;

    public readonly ref struct InHeader(ReadOnlySpan<byte> request)
    {
        public uint Length { get; } = Read32(request, 0);
        public Opcode Opcode { get; } = (Opcode)Read32(request, 4);
        public ulong Unique { get; } = Read64(request, 8);
        public ulong Node { get; } = Read64(request, 16);
    }

    public static uint Read32(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt32LittleEndian(b[at..]);
    public static ulong Read64(ReadOnlySpan<byte> b, int at) => BinaryPrimitives.ReadUInt64LittleEndian(b[at..]);
    public static void Write16(Span<byte> b, int at, ushort v) => BinaryPrimitives.WriteUInt16LittleEndian(b[at..], v);
    public static void Write32(Span<byte> b, int at, uint v) => BinaryPrimitives.WriteUInt32LittleEndian(b[at..], v);
    public static void Write64(Span<byte> b, int at, ulong v) => BinaryPrimitives.WriteUInt64LittleEndian(b[at..], v);

    public static void OutHeader(Span<byte> reply, int length, int error, ulong unique)
    {
        Write32(reply, 0, (uint)length);
        Write32(reply, 4, (uint)error);
        Write64(reply, 8, unique);
    }

    /// <summary>A NUL-terminated name in a request body, as a string.</summary>
    public static string Name(ReadOnlySpan<byte> body)
    {
        int end = body.IndexOf((byte)0);
        return System.Text.Encoding.UTF8.GetString(end < 0 ? body : body[..end]);
    }

    /// <summary>
    /// struct fuse_attr from a libc struct stat (read by <see cref="FileStatus"/>), with <paramref name="node"/> as the
    /// inode number (the kernel's inode is the node, not the file below).
    /// </summary>
    public static void Attr(ReadOnlySpan<byte> stat, ulong node, Span<byte> attr)
    {
        var status = FileStatus.FromLibcStat(stat);
        attr.Clear();
        Write64(attr, 0, node);
        Write64(attr, 8, (ulong)status.Length);
        Write64(attr, 16, (ulong)status.Blocks);
        Write64(attr, 24, (ulong)status.Accessed.Seconds);
        Write64(attr, 32, (ulong)status.Modified.Seconds);
        Write64(attr, 40, (ulong)status.Changed.Seconds);
        Write32(attr, 48, (uint)status.Accessed.Nanoseconds);
        Write32(attr, 52, (uint)status.Modified.Nanoseconds);
        Write32(attr, 56, (uint)status.Changed.Nanoseconds);
        Write32(attr, 60, status.Mode);
        Write32(attr, 64, (uint)status.Links);
        Write32(attr, 68, status.UserId);
        Write32(attr, 72, status.GroupId);
        Write32(attr, 76, (uint)status.SpecialDevice);
        Write32(attr, 80, (uint)status.BlockSize);
    }

    /// <summary>struct fuse_kstatfs from a glibc struct statvfs (64-bit).</summary>
    public static void StatFs(ReadOnlySpan<byte> statvfs, Span<byte> kstatfs)
    {
        kstatfs.Clear();
        Write64(kstatfs, 0, Read64(statvfs, 16));  // blocks
        Write64(kstatfs, 8, Read64(statvfs, 24));  // bfree
        Write64(kstatfs, 16, Read64(statvfs, 32)); // bavail
        Write64(kstatfs, 24, Read64(statvfs, 40)); // files
        Write64(kstatfs, 32, Read64(statvfs, 48)); // ffree
        Write32(kstatfs, 40, (uint)Read64(statvfs, 0));  // bsize
        Write32(kstatfs, 44, (uint)Read64(statvfs, 80)); // namelen
        Write32(kstatfs, 48, (uint)Read64(statvfs, 8));  // frsize
    }
}
