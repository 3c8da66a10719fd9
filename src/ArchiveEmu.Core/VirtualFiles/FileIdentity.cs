namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>What a file looked like when a virtual file was built over it: a change means its bytes may have moved.</summary>
public readonly record struct FileIdentity(long Length, DateTime LastWriteUtc)
{
    /// <summary>Reads the identity of the file at <paramref name="path"/>; a missing file is a <see cref="FileNotFoundException"/> naming it.</summary>
    public static FileIdentity Of(string path)
    {
        var info = new FileInfo(path);
        if ((info.Attributes & FileAttributes.ReparsePoint) != 0 && info.LinkTarget is not null) // from the lstat already done: no readlink per file
            info = info.ResolveLinkTarget(returnFinalTarget: true) as FileInfo ?? info; // FileInfo describes the link itself, not its file
        if (!info.Exists)
            throw new FileNotFoundException($"{path}: file not found", path);
        return new FileIdentity(info.Length, info.LastWriteTimeUtc);
    }

    /// <summary>The identity of an open file (fstat: the file it names now, whatever its path became).</summary>
    public static FileIdentity Of(Microsoft.Win32.SafeHandles.SafeFileHandle handle) =>
        new(RandomAccess.GetLength(handle), File.GetLastWriteTimeUtc(handle));

    public override string ToString() => $"{Length} bytes, modified {LastWriteUtc:yyyy-MM-dd HH:mm:ss.fffffff}Z";
}
