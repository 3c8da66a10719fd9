using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

/// <summary>A time as the system keeps it: seconds since 1970-01-01 UTC and nanoseconds into that second (0 to 999,999,999).</summary>
internal readonly record struct UnixTime(long Seconds, long Nanoseconds)
{
    /// <summary>The time as a UTC <see cref="DateTime"/>, to its 100 ns ticks.</summary>
    public DateTime ToDateTime() => DateTime.UnixEpoch.AddTicks(Seconds * TimeSpan.TicksPerSecond + Nanoseconds / 100);

    /// <summary>The time of a <see cref="DateTime"/> (taken as UTC).</summary>
    public static UnixTime From(DateTime utc)
    {
        long seconds = Math.DivRem(utc.Ticks - DateTime.UnixEpoch.Ticks, TimeSpan.TicksPerSecond, out long rest);
        if (rest < 0)
            (seconds, rest) = (seconds - 1, rest + TimeSpan.TicksPerSecond);
        return new UnixTime(seconds, rest * 100);
    }
}

/// <summary>
/// What the system says of a file, with what .NET does not expose: its inode (file index) and device, and its change
/// time. From stat(2) on Linux, GetFileInformationByHandle(Ex) on Windows, and what .NET gives elsewhere (no inode,
/// change time = write time). A field the system has no counterpart for is 0.
/// </summary>
internal readonly partial record struct FileStatus
{
    /// <summary>The device (Windows: volume serial number) the file is on.</summary>
    public ulong Device { get; init; }

    /// <summary>The inode number (Windows: the file index); with <see cref="Device"/>, names the file whatever its path.</summary>
    public ulong Inode { get; init; }

    /// <summary>The Unix st_mode: file type and permission bits.</summary>
    public uint Mode { get; init; }

    public ulong Links { get; init; }
    public uint UserId { get; init; }
    public uint GroupId { get; init; }

    /// <summary>The device a special file stands for (st_rdev).</summary>
    public ulong SpecialDevice { get; init; }

    /// <summary>The size in bytes.</summary>
    public long Length { get; init; }

    /// <summary>The preferred I/O size (st_blksize).</summary>
    public long BlockSize { get; init; }

    /// <summary>The space taken, in 512-byte units (st_blocks).</summary>
    public long Blocks { get; init; }

    public UnixTime Accessed { get; init; }
    public UnixTime Modified { get; init; }

    /// <summary>When the file's data or attributes last changed (st_ctime; Windows: ChangeTime): a chmod or a rename moves it, unlike <see cref="Modified"/>.</summary>
    public UnixTime Changed { get; init; }

    public bool IsDirectory => (Mode & TypeMask) == DirectoryType;

    public bool IsRegularFile => (Mode & TypeMask) == RegularType;

    /// <summary>What the file is, for a line refusing one that is not a regular file: "a FIFO", "a character device", ….</summary>
    public string Kind => (Mode & TypeMask) switch
    {
        RegularType => "a regular file",
        DirectoryType => "a folder",
        0x1000 => "a FIFO",
        0x2000 => "a character device",
        0x6000 => "a block device",
        0xC000 => "a socket",
        _ => $"a file of type {Mode & TypeMask:x}",
    };

    private const uint TypeMask = 0xF000, DirectoryType = 0x4000, RegularType = 0x8000;

    /// <summary>The status of the file at <paramref name="path"/> (links followed); a missing file is a <see cref="FileNotFoundException"/> naming it.</summary>
    public static FileStatus Of(string path)
    {
        if (OperatingSystem.IsLinux() && HasLibcLayout)
            return OfLinux(path);
        if (OperatingSystem.IsWindows())
            return OfWindows(path);
        return OfDotNet(path);
    }

    /// <summary>The status of an open file: the file it names now, whatever its path became.</summary>
    public static FileStatus Of(SafeFileHandle handle)
    {
        if (OperatingSystem.IsLinux() && HasLibcLayout)
            return OfLinux(handle);
        if (OperatingSystem.IsWindows())
            return OfWindows(handle);
        var modified = UnixTime.From(File.GetLastWriteTimeUtc(handle));
        return new FileStatus
        {
            Mode = RegularType,
            Length = RandomAccess.GetLength(handle),
            Modified = modified,
            Changed = modified,
            Accessed = UnixTime.From(File.GetLastAccessTimeUtc(handle)),
        };
    }

    private static FileStatus OfDotNet(string path)
    {
        FileSystemInfo info = Directory.Exists(path) ? new DirectoryInfo(path) : new FileInfo(path);
        if (info.LinkTarget is not null)
            info = info.ResolveLinkTarget(returnFinalTarget: true) ?? info;
        if (!info.Exists)
            throw new FileNotFoundException($"{path}: file not found", path);
        var modified = UnixTime.From(info.LastWriteTimeUtc);
        return new FileStatus
        {
            Mode = (info is DirectoryInfo ? DirectoryType : RegularType) | (OperatingSystem.IsWindows() ? 0 : (uint)info.UnixFileMode),
            Links = 1,
            Length = info is FileInfo file ? file.Length : 0,
            Modified = modified,
            Changed = modified,
            Accessed = UnixTime.From(info.LastAccessTimeUtc),
        };
    }
}
