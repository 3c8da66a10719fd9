using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Cli.Archives;

/// <summary>
/// Archives inside an emulated archive that no mod changes inside (<c>CPK/EN.CPK/FIELD/PACK/FD007_003.ARC</c> when no mod touches
/// it): read as the originals they are, from the entry's bytes as the outer archive serves them (decoded when stored encoded), so
/// <c>cat</c> finds an entry below any depth of them. Holds what it opened (and the scratch copy of an inner archive that is not
/// one slice of a file) until disposed.
/// </summary>
internal sealed class UntouchedInnerArchives : IDisposable
{
    private readonly List<IDisposable> _owned = [];
    private readonly List<string> _scratch = [];

    /// <summary>
    /// From <paramref name="archive"/> at <paramref name="archivePath"/>, the archive whose entry <paramref name="rest"/> names, going
    /// through entries that hold archives (the longest such entry name first, as a mod path goes through them), and that entry's name.
    /// </summary>
    public (EmulatedArchive Archive, string Path, string Entry) Descend(EmulatedArchive archive, string archivePath, string rest)
    {
        while (EntryBytes.TryFind(archive, rest) is null && Through(archive, archivePath, rest) is var (inner, name))
        {
            archive = inner;
            archivePath = $"{archivePath}/{name}";
            rest = rest[(name.Length + 1)..];
        }
        return (archive, archivePath, rest);
    }

    /// <summary>
    /// The archive <paramref name="rest"/> names below <paramref name="archive"/> (for <c>ls</c>), which the caller disposes; what it
    /// went through (<paramref name="archive"/> too) is disposed with this.
    /// </summary>
    public EmulatedArchive OpenArchive(EmulatedArchive archive, string archivePath, string rest)
    {
        _owned.Add(archive);
        var (holder, holderPath, name) = Descend(archive, archivePath, rest);
        if (EntryBytes.TryFind(holder, name) is not { State: not EntryState.Deleted, Size: > 0 })
            throw new FileNotFoundException($"{holderPath}: no entry '{name}' (list its entries with archiveemu ls {holderPath})");
        return Open(holder, holderPath, name, "");
    }

    // The longest leading entry name of rest that holds an archive, opened; null when none does (the caller says the entry is missing).
    private (EmulatedArchive, string)? Through(EmulatedArchive archive, string archivePath, string rest)
    {
        for (int slash = rest.LastIndexOf('/'); slash > 0; slash = rest.LastIndexOf('/', slash - 1))
        {
            var name = rest[..slash];
            if (EntryBytes.TryFind(archive, name) is not { State: not EntryState.Deleted, Size: > 0 })
                continue;
            var inner = Open(archive, archivePath, name, rest[(slash + 1)..]);
            _owned.Add(inner);
            return (inner, name);
        }
        return null;
    }

    // Entry name of archive read as the original archive it holds; below: the path the caller wants inside it, for the error.
    private EmulatedArchive Open(EmulatedArchive archive, string archivePath, string name, string below)
    {
        var source = SourceOf(EntryBytes.Open(archive, archivePath, name, decode: true));
        if (ArchiveFormats.Detect(source) is not { } format)
            throw new IOException(below.Length == 0 ? $"{archivePath}: entry '{name}' is no archive ArchiveEmu knows"
                : $"{archivePath}: entry '{name}' is no archive ArchiveEmu knows, so nothing is below it ('{below}')");
        return new ArchiveRoute($"{archivePath}/{name}", source.Path, format, ArchivePatch.Empty, [], source).Build();
    }

    // The entry's bytes where they lie in one file (an entry stored as is), else a scratch copy (decoded, or pieced from several files).
    private ArchiveSource SourceOf(VirtualFile bytes)
    {
        _owned.Add(bytes);
        if (bytes.Segments is [{ Source: FileSource file } only] && only.Length == bytes.Length)
            return new ArchiveSource(file.Path, only.SourceOffset, only.Length, file.Identity);
        var path = Path.GetTempFileName();
        _scratch.Add(path);
        using (var stream = new FileStream(path, FileMode.Truncate, FileAccess.Write))
        {
            var buffer = new byte[1 << 20];
            for (long at = 0; at < bytes.Length;)
            {
                int read = bytes.Read(at, buffer);
                stream.Write(buffer, 0, read);
                at += read;
            }
        }
        return ArchiveSource.File(path);
    }

    public void Dispose()
    {
        foreach (var owned in Enumerable.Reverse(_owned))
            owned.Dispose();
        foreach (var path in _scratch)
            File.Delete(path);
    }
}
