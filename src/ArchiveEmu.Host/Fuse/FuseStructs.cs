using System.Runtime.InteropServices;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// struct fuse_operations of libfuse 3.14 (fuse.h), one function pointer per operation in header order.
/// Unset pointers mean "not implemented" (the library answers ENOSYS).
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal struct FuseOperations
{
    public IntPtr GetAttr, ReadLink, MkNod, MkDir, Unlink, RmDir, Symlink, Rename, Link, Chmod, Chown, Truncate,
        Open, Read, Write, StatFs, Flush, Release, Fsync, SetXAttr, GetXAttr, ListXAttr, RemoveXAttr,
        OpenDir, ReadDir, ReleaseDir, FsyncDir, Init, Destroy, Access, Create, Lock, Utimens, Bmap, Ioctl, Poll,
        WriteBuf, ReadBuf, Flock, Fallocate, CopyFileRange, Lseek;
}

/// <summary>struct fuse_file_info (fuse_common.h): open flags, the bit fields we set, and our handle id.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct FuseFileInfo
{
    private const uint DirectIoBit = 1u << 1;
    private const uint KeepCacheBit = 1u << 2;

    public int Flags;
    public uint Bits; // writepage:1, direct_io:1, keep_cache:1, flush:1, nonseekable:1, …
    public uint Padding2;
    public ulong Handle; // fh
    public ulong LockOwner;
    public uint PollEvents;

    public bool DirectIo
    {
        readonly get => (Bits & DirectIoBit) != 0;
        set => Bits = value ? Bits | DirectIoBit : Bits & ~DirectIoBit;
    }

    public bool KeepCache
    {
        readonly get => (Bits & KeepCacheBit) != 0;
        set => Bits = value ? Bits | KeepCacheBit : Bits & ~KeepCacheBit;
    }
}
