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

/// <summary>
/// The fields of a libc <c>struct stat</c> the mount rewrites. Size, blocks and mtime sit at the same
/// offsets on x86_64 and arm64; only st_mode moves. Everything else comes from a real stat(2).
/// </summary>
internal static class StatLayout
{
    private const int SizeOffset = 48, BlocksOffset = 64, MtimeOffset = 88;
    private static readonly int ModeOffset = RuntimeInformation.ProcessArchitecture switch
    {
        Architecture.X64 => 24,
        Architecture.Arm64 => 16,
        _ => -1,
    };

    public static bool IsSupported => ModeOffset >= 0;

    public static uint Mode(ReadOnlySpan<byte> stat) => MemoryMarshal.Read<uint>(stat[ModeOffset..]);

    /// <summary>Clears the write bits: nothing in the mount is writable.</summary>
    public static void MakeReadOnly(Span<byte> stat)
    {
        uint mode = Mode(stat) & ~0x92u; // ~0222: no write bit for anyone
        MemoryMarshal.Write(stat[ModeOffset..], in mode);
    }

    public static void SetSize(Span<byte> stat, long size)
    {
        MemoryMarshal.Write(stat[SizeOffset..], in size);
        long blocks = (size + 511) / 512; // st_blocks counts 512-byte units, so `du` agrees with the size
        MemoryMarshal.Write(stat[BlocksOffset..], in blocks);
    }

    public static void SetModified(Span<byte> stat, DateTime utc)
    {
        long ticks = utc.Ticks - DateTime.UnixEpoch.Ticks;
        long seconds = Math.DivRem(ticks, TimeSpan.TicksPerSecond, out long rest);
        if (rest < 0)
            (seconds, rest) = (seconds - 1, rest + TimeSpan.TicksPerSecond);
        long nanoseconds = rest * 100;
        MemoryMarshal.Write(stat[MtimeOffset..], in seconds);
        MemoryMarshal.Write(stat[(MtimeOffset + 8)..], in nanoseconds);
    }

    /// <summary>
    /// The file's size and mtime as <see cref="Core.VirtualFiles.FileIdentity.Of(string)"/> reads them (mtime to .NET's
    /// 100 ns ticks), from a stat(2) already taken: no second stat on the lookup path.
    /// </summary>
    public static Core.VirtualFiles.FileIdentity Identity(ReadOnlySpan<byte> stat)
    {
        long size = MemoryMarshal.Read<long>(stat[SizeOffset..]);
        long seconds = MemoryMarshal.Read<long>(stat[MtimeOffset..]);
        long nanoseconds = MemoryMarshal.Read<long>(stat[(MtimeOffset + 8)..]);
        var modified = DateTime.UnixEpoch.AddTicks(seconds * TimeSpan.TicksPerSecond + nanoseconds / 100);
        return new Core.VirtualFiles.FileIdentity(size, modified);
    }

    public static bool IsDirectory(ReadOnlySpan<byte> stat) => (Mode(stat) & 0xF000) == 0x4000;
}
