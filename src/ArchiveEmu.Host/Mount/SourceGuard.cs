using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Detects that a file a virtual file reads from was changed in place after the build (an editor saving
/// over a mod's loose file). After each read, the files behind the segments that read found are stat'ed and compared with
/// their identity at build time (size, mtime, ctime, inode: <see cref="FileIdentity"/>, so `cp -p` over one is seen too);
/// a difference fails the read with an <see cref="IOException"/> (EIO at the FUSE edge) rather than a mix of bytes.
/// </summary>
internal sealed class SourceGuard : IReadCheck
{
    private readonly int[] _fileOfSegment; // index into _files, or -1 for memory and zeros
    private readonly Watched[] _files;

    private SourceGuard(int[] fileOfSegment, Watched[] files)
    {
        _fileOfSegment = fileOfSegment;
        _files = files;
    }

    private sealed record Watched(string Path, FileIdentity Identity);

    /// <summary>
    /// A guard over <paramref name="file"/>'s file segments, for reads of that file (the segment indices it is given are
    /// that file's), or null if it reads no files (merged or in-memory).
    /// </summary>
    public static SourceGuard? For(VirtualFile file)
    {
        var segments = file.Segments;
        var fileOf = new int[segments.Length];
        var files = new List<Watched>();
        var indexOf = new Dictionary<string, int>(StringComparer.Ordinal);
        for (int i = 0; i < segments.Length; i++)
        {
            fileOf[i] = -1;
            if (segments[i].Source is not FileSource source)
                continue;
            if (!indexOf.TryGetValue(source.Path, out int index))
            {
                indexOf[source.Path] = index = files.Count;
                files.Add(new Watched(source.Path, source.Identity));
            }
            fileOf[i] = index;
        }
        return files.Count == 0 ? null : new SourceGuard(fileOf, files.ToArray());
    }

    /// <summary>Throws when a file behind segments [first, last], just read, no longer has its build-time identity.</summary>
    public void AfterRead(int first, int last)
    {
        Span<int> checkedFiles = stackalloc int[8];
        int checkedCount = 0;
        for (int i = first; i <= last; i++)
        {
            int file = _fileOfSegment[i];
            if (file < 0 || checkedFiles[..checkedCount].Contains(file))
                continue;
            if (!Same(_files[file]))
                ThrowChanged(_files[file]);
            if (checkedCount < checkedFiles.Length)
                checkedFiles[checkedCount++] = file; // past 8 distinct files a repeat is simply stat'ed again
        }
    }

    /// <summary>Whether every file the virtual file reads still has its build-time identity.</summary>
    public bool AllUnchanged() => _files.All(Same);

    private static bool Same(Watched watched)
    {
        try
        {
            return FileIdentity.Of(watched.Path) == watched.Identity; // one stat
        }
        catch (IOException)
        {
            return false; // gone, or no longer reachable: not the file it was
        }
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)] // kept out of the check, which runs after every read
    private static void ThrowChanged(Watched watched) =>
        throw new IOException($"{watched.Path}, a file it reads from, changed since this version was built; this handle gets EIO, reopen for the new version");
}
