using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// What the mount reads from and rewrites in a libc <c>struct stat</c> it hands to the kernel: the mode, the size (with
/// st_blocks to match) and the mtime. The layout itself is <see cref="FileStatus"/>'s; everything else comes from a real stat(2).
/// </summary>
internal static class StatFields
{
    public static bool IsSupported => FileStatus.HasLibcLayout;

    public static bool IsDirectory(ReadOnlySpan<byte> stat) => FileStatus.FromLibcStat(stat).IsDirectory;

    /// <summary>Clears the write bits: nothing in the mount is writable.</summary>
    public static void MakeReadOnly(Span<byte> stat)
    {
        var status = FileStatus.FromLibcStat(stat);
        (status with { Mode = status.Mode & ~0x92u }).WriteLibcStat(stat); // ~0222: no write bit for anyone
    }

    public static void SetSize(Span<byte> stat, long size)
    {
        // st_blocks counts 512-byte units, so `du` agrees with the size
        (FileStatus.FromLibcStat(stat) with { Length = size, Blocks = (size + 511) / 512 }).WriteLibcStat(stat);
    }

    public static void SetModified(Span<byte> stat, DateTime utc) =>
        (FileStatus.FromLibcStat(stat) with { Modified = UnixTime.From(utc) }).WriteLibcStat(stat);
}
