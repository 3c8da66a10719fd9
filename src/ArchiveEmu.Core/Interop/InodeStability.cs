using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

/// <summary>
/// Whether a file system keeps a file's inode number (Windows: file index) for the file's whole life, so that it can
/// name the file in a cache key and in the handle pool's identity check. Asked once per device (Windows: volume) per
/// process — a statfs, never one per file; a device number reused by another file system while this process runs is
/// taken for the first one.
/// </summary>
internal static class InodeStability
{
    // Linux statfs f_type values of file systems whose inode numbers are made up when the file is read in, so they
    // change at every mount and even once the kernel drops the inode from memory: FAT and exFAT (no inodes on disk),
    // FUSE (libfuse's node ids unless the server passes its own), CIFS/SMB (client-made numbers under noserverino).
    private static readonly long[] s_unstableLinux = [0x4d44, 0x2011BAB0, 0x65735546, 0xFF534D42, 0xFE534D42];

    // Windows derives a FAT or exFAT file's index from where its directory entry is, not from the file.
    private static readonly string[] s_unstableWindows = ["FAT", "FAT32", "exFAT"];

    private static readonly ConcurrentDictionary<ulong, bool> s_byDevice = new();

    /// <summary>Whether the file system of the file at <paramref name="path"/>, on <paramref name="device"/>, keeps inode numbers.</summary>
    public static bool IsStable(ulong device, string path)
    {
        if (s_byDevice.TryGetValue(device, out bool stable))
            return stable;
        if (OperatingSystem.IsWindows())
        {
            using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return IsStable(device, handle);
        }
        return s_byDevice[device] = OperatingSystem.IsLinux() && FileStatus.HasLibcLayout && LinuxKeepsInodes(path, null);
    }

    /// <summary>As <see cref="IsStable(ulong, string)"/>, for an open file.</summary>
    public static bool IsStable(ulong device, SafeFileHandle handle)
    {
        if (s_byDevice.TryGetValue(device, out bool stable))
            return stable;
        if (OperatingSystem.IsWindows())
            return s_byDevice[device] = WindowsKeepsIndexes(handle);
        return s_byDevice[device] = OperatingSystem.IsLinux() && FileStatus.HasLibcLayout && LinuxKeepsInodes(null, handle);
    }

    private static unsafe bool LinuxKeepsInodes(string? path, SafeFileHandle? handle)
    {
        byte* buffer = stackalloc byte[256]; // struct statfs: 120 bytes on x86_64 and arm64
        int result = path is not null ? LibC.Statfs(path, buffer) : LibC.Fstatfs(handle!, buffer);
        if (result != 0)
            return true; // the file was just stat'ed: a statfs failing after it is a race; the inode is more often kept than not
        long type = *(long*)buffer;
        return Array.IndexOf(s_unstableLinux, type) < 0;
    }

    [System.Runtime.Versioning.SupportedOSPlatform("windows")]
    private static unsafe bool WindowsKeepsIndexes(SafeFileHandle handle)
    {
        char* name = stackalloc char[64];
        if (!Kernel32.GetVolumeInformationByHandleW(handle, null, 0, null, null, null, name, 64))
            return true; // NTFS, the usual case, keeps them; a system that cannot say is taken for it
        string fileSystem = new(name);
        return !s_unstableWindows.Contains(fileSystem, StringComparer.OrdinalIgnoreCase);
    }
}
