using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Interop;

// Windows: the file index and volume serial stand for inode and device; FILE_BASIC_INFO has the change time.
internal readonly partial record struct FileStatus
{
    [SupportedOSPlatform("windows")]
    private static FileStatus OfWindows(string path)
    {
        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw new FileNotFoundException($"{path}: file not found", path, e);
        }
        catch (UnauthorizedAccessException) when (Directory.Exists(path))
        {
            return OfDotNet(path); // opening a folder takes backup semantics; what .NET says of it is enough
        }
        using (handle)
            return OfWindows(handle);
    }

    [SupportedOSPlatform("windows")]
    private static FileStatus OfWindows(SafeFileHandle handle)
    {
        if (!Kernel32.GetFileInformationByHandle(handle, out var info)
            || !Kernel32.GetFileInformationByHandleEx(handle, Kernel32.FileBasicInfoClass, out var basic, (uint)System.Runtime.CompilerServices.Unsafe.SizeOf<Kernel32.FileBasicInfo>()))
            throw new IOException($"reading a file's information failed ({System.Runtime.InteropServices.Marshal.GetLastPInvokeErrorMessage()})");
        bool directory = (info.FileAttributes & Kernel32.FileAttributeDirectory) != 0;
        return new FileStatus
        {
            Device = info.VolumeSerialNumber,
            Inode = (ulong)info.FileIndexHigh << 32 | info.FileIndexLow,
            Mode = directory ? DirectoryType : RegularType,
            Links = info.NumberOfLinks,
            Length = (long)((ulong)info.FileSizeHigh << 32 | info.FileSizeLow),
            Accessed = FromFileTime(basic.LastAccessTime),
            Modified = FromFileTime(basic.LastWriteTime),
            Changed = FromFileTime(basic.ChangeTime),
        };
    }

    private static UnixTime FromFileTime(long fileTime) => UnixTime.From(DateTime.FromFileTimeUtc(fileTime));
}
