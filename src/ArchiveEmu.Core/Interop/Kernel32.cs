using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

/// <summary>The Win32 calls Core makes on Windows, declared once: a file's index, volume and change time, and the volume's file system.</summary>
internal static partial class Kernel32
{
    public const int FileBasicInfoClass = 0; // FILE_INFO_BY_HANDLE_CLASS.FileBasicInfo
    public const uint FileAttributeDirectory = 0x10;

    /// <summary>BY_HANDLE_FILE_INFORMATION (its FILETIMEs are two DWORDs: 4-byte aligned).</summary>
    [StructLayout(LayoutKind.Sequential, Pack = 4)]
    public struct ByHandleFileInformation
    {
        public uint FileAttributes;
        public long CreationTime, LastAccessTime, LastWriteTime; // FILETIMEs, packed as two DWORDs each
        public uint VolumeSerialNumber;
        public uint FileSizeHigh, FileSizeLow;
        public uint NumberOfLinks;
        public uint FileIndexHigh, FileIndexLow;
    }

    /// <summary>FILE_BASIC_INFO.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FileBasicInfo
    {
        public long CreationTime, LastAccessTime, LastWriteTime, ChangeTime;
        public uint FileAttributes;
    }

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetFileInformationByHandle(SafeFileHandle file, out ByHandleFileInformation information);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetFileInformationByHandleEx(SafeFileHandle file, int informationClass, out FileBasicInfo information, uint size);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static unsafe partial bool GetVolumeInformationByHandleW(SafeFileHandle file, char* volumeName, uint volumeNameSize,
        uint* serialNumber, uint* maxComponentLength, uint* fileSystemFlags, char* fileSystemName, uint fileSystemNameSize);
}
