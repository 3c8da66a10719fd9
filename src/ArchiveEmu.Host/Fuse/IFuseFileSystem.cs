using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// A file the kernel can read in place of a served one. <paramref name="Key"/> names the version (equal keys
/// hold equal bytes); <paramref name="Open"/> gives a read-only handle on it, or throws IOException when it is
/// no longer that version; the caller disposes that handle when <paramref name="CallerDisposes"/>.
/// </summary>
internal sealed record BackingSource(FileVersion Key, Func<SafeFileHandle> Open, bool CallerDisposes = true);

/// <summary>
/// What an open gave: <paramref name="Errno"/> (0 on success), or the id of the new handle and whether the kernel may keep
/// the file's cached pages from earlier opens (<paramref name="KeepCache"/>) or must send every read (<paramref name="DirectIo"/>).
/// Each transport turns it into its own reply (libfuse's fuse_file_info, the kernel's fuse_open_out).
/// </summary>
internal readonly record struct OpenResult(int Errno, ulong Handle = 0, bool KeepCache = false, bool DirectIo = false)
{
    public static OpenResult Failed(int errno) => new(errno);
}

/// <summary>
/// What the FUSE callbacks ask of a read-only filesystem. Paths are relative to the mount root with '/'
/// separators ("" is the root), spelled as asked: with ignore-case one may name entries in another letter case (libfuse
/// passes such paths as they come). Results are 0 or a byte count on success, a negative errno on failure.
/// </summary>
internal interface IFuseFileSystem
{
    /// <summary>Fills <paramref name="stat"/> (a libc struct stat) for the path.</summary>
    int GetAttr(string path, Span<byte> stat);

    /// <summary>
    /// As <see cref="GetAttr(string, Span{byte})"/>, also naming the version of the file described (null for a folder):
    /// equal to <see cref="VersionOf"/> of a handle opened on that same version, different once the path changed.
    /// </summary>
    int GetAttr(string path, Span<byte> stat, out FileVersion? version);

    /// <summary>
    /// As <see cref="GetAttr(string, Span{byte}, out FileVersion?)"/>, for a lookup of a name: also the path as the mounted tree
    /// spells it, which differs from <paramref name="path"/> only with ignore-case, when the path named an entry by another case.
    /// </summary>
    int Lookup(string path, Span<byte> stat, out FileVersion? version, out string realPath);

    /// <summary>The version open handle <paramref name="handle"/> reads, or null.</summary>
    FileVersion? VersionOf(ulong handle);

    /// <summary>Opens for reading with open(2) <paramref name="flags"/>: the handle id and how the kernel may cache the file's pages, or an errno.</summary>
    OpenResult Open(string path, int flags);

    /// <summary>pread on an open handle: the bytes at <paramref name="offset"/>, fewer only at the end of the file.</summary>
    int Read(ulong handle, long offset, Span<byte> destination);

    int Release(ulong handle);

    /// <summary>
    /// A real file holding exactly the bytes of open handle <paramref name="handle"/>, which the kernel may read
    /// directly (FUSE passthrough), or null when the bytes are assembled by the host (an emulated archive).
    /// </summary>
    BackingSource? BackingOf(ulong handle);

    /// <summary>The names in a directory (without "." and ".."), or null with <paramref name="error"/> set.</summary>
    IReadOnlyCollection<string>? ListDirectory(string path, out int error);

    /// <summary>Fills a libc struct statvfs for the mount.</summary>
    int StatFs(Span<byte> statvfs);

    /// <summary>Logs a failure a callback could not turn into an errno by itself.</summary>
    void Failed(string operation, string path, Exception error);
}
