using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

// The one place that knows the layout of glibc's struct stat (x86_64: 144 bytes; arm64, the generic layout: 128).
// Only st_nlink, st_mode and st_blksize move between the two; every other field has the same offset.
internal readonly partial record struct FileStatus
{
    private static readonly bool s_arm64 = RuntimeInformation.ProcessArchitecture == Architecture.Arm64;

    /// <summary>Whether the layout of libc's struct stat is known in this process (Linux on x86_64 or arm64).</summary>
    public static bool HasLibcLayout { get; } = RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.Arm64;

    /// <summary>The size of libc's struct stat here (0 where <see cref="HasLibcLayout"/> is false).</summary>
    public static int LibcStatSize { get; } = !HasLibcLayout ? 0 : s_arm64 ? 128 : 144;

    /// <summary>Reads a libc struct stat (from stat(2), fstat(2)), for hosts that hand one to or take one from the kernel.</summary>
    public static FileStatus FromLibcStat(ReadOnlySpan<byte> stat) => new()
    {
        Device = Read<ulong>(stat, 0),
        Inode = Read<ulong>(stat, 8),
        Mode = Read<uint>(stat, s_arm64 ? 16 : 24),
        Links = s_arm64 ? Read<uint>(stat, 20) : Read<ulong>(stat, 16),
        UserId = Read<uint>(stat, s_arm64 ? 24 : 28),
        GroupId = Read<uint>(stat, s_arm64 ? 28 : 32),
        SpecialDevice = Read<ulong>(stat, s_arm64 ? 32 : 40),
        Length = Read<long>(stat, 48),
        BlockSize = s_arm64 ? Read<int>(stat, 56) : Read<long>(stat, 56),
        Blocks = Read<long>(stat, 64),
        Accessed = new UnixTime(Read<long>(stat, 72), Read<long>(stat, 80)),
        Modified = new UnixTime(Read<long>(stat, 88), Read<long>(stat, 96)),
        Changed = new UnixTime(Read<long>(stat, 104), Read<long>(stat, 112)),
    };

    /// <summary>Writes these fields into a libc struct stat, leaving its padding as it was.</summary>
    public void WriteLibcStat(Span<byte> stat)
    {
        Write(stat, 0, Device);
        Write(stat, 8, Inode);
        Write(stat, s_arm64 ? 16 : 24, Mode);
        if (s_arm64)
            Write(stat, 20, (uint)Links);
        else
            Write(stat, 16, Links);
        Write(stat, s_arm64 ? 24 : 28, UserId);
        Write(stat, s_arm64 ? 28 : 32, GroupId);
        Write(stat, s_arm64 ? 32 : 40, SpecialDevice);
        Write(stat, 48, Length);
        if (s_arm64)
            Write(stat, 56, (int)BlockSize);
        else
            Write(stat, 56, BlockSize);
        Write(stat, 64, Blocks);
        Write(stat, 72, Accessed.Seconds);
        Write(stat, 80, Accessed.Nanoseconds);
        Write(stat, 88, Modified.Seconds);
        Write(stat, 96, Modified.Nanoseconds);
        Write(stat, 104, Changed.Seconds);
        Write(stat, 112, Changed.Nanoseconds);
    }

    private static unsafe FileStatus OfLinux(string path)
    {
        byte* stat = stackalloc byte[MaxLibcStatSize];
        if (LibC.Stat(path, stat) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            if (errno is LibC.ENOENT or LibC.ENOTDIR)
                throw new FileNotFoundException($"{path}: file not found", path);
            throw new IOException($"{path}: stat failed ({Marshal.GetPInvokeErrorMessage(errno)})");
        }
        return FromLibcStat(new ReadOnlySpan<byte>(stat, MaxLibcStatSize));
    }

    private static unsafe FileStatus OfLinux(SafeFileHandle handle)
    {
        byte* stat = stackalloc byte[MaxLibcStatSize];
        if (LibC.Fstat(handle, stat) != 0)
            throw new IOException($"fstat failed ({Marshal.GetLastPInvokeErrorMessage()})");
        return FromLibcStat(new ReadOnlySpan<byte>(stat, MaxLibcStatSize));
    }

    private const int MaxLibcStatSize = 144;

    private static T Read<T>(ReadOnlySpan<byte> stat, int offset) where T : unmanaged => MemoryMarshal.Read<T>(stat[offset..]);

    private static void Write<T>(Span<byte> stat, int offset, T value) where T : unmanaged => MemoryMarshal.Write(stat[offset..], in value);
}
