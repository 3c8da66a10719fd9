using System.Collections.Concurrent;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Fuse;
using Microsoft.Extensions.Logging;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// The modded game folder as a read-only filesystem: targeted archives are their emulated or merged
/// version (emulated size, mtime of the newest input), overrides are the mod's file, everything else is
/// the game's file. Safe from libfuse's worker threads; a hot reload swaps the snapshot for new opens.
/// With ignore-case, a path that does not exist as spelled is looked up again whatever its letter case (.IgnoreCase.cs).
/// </summary>
internal sealed partial class ModdedGameFileSystem : IFuseFileSystem, IDisposable
{
    private readonly string _gameFolder;
    private readonly ArchiveBuilder _builder;
    private readonly ILogger _logger;
    private readonly HandleTable _handles = new();
    private readonly PageCachePolicy _pageCache = new();
    private readonly RepeatedWarnings _warnings = new();
    private readonly ConcurrentDictionary<string, ReadCounters> _counters = new(StringComparer.Ordinal);
    private MountSnapshot _snapshot;

    /// <param name="game">The game as first opened; its <see cref="EmulatedGame.Setup"/> (cache, handle pool) carries over to every hot reload.</param>
    public ModdedGameFileSystem(EmulatedGame game, ArchiveBuilder builder, ILogger logger, bool ignoreCase = false)
    {
        _ignoreCase = ignoreCase;
        _gameFolder = game.Plan.GameFolder;
        _builder = builder;
        _logger = logger;
        _snapshot = MountSnapshot.Create(game, previous: null);
    }

    /// <summary>Where to send "drop what you cached for this path" after a reload (the mount, once it runs).</summary>
    public Action<string>? Invalidate { get; set; }

    private MountSnapshot Current => Volatile.Read(ref _snapshot);

    // The answer is always the current version, even for fstat on an older handle: the kernel caches attributes
    // per inode, so an old version's size would be served to every new open until the attributes expire.
    public int GetAttr(string path, Span<byte> stat) => GetAttr(path, stat, out _);

    public int GetAttr(string path, Span<byte> stat, out FileVersion? version) => Lookup(path, stat, out version, out _);

    public int Lookup(string path, Span<byte> stat, out FileVersion? version, out string realPath)
    {
        realPath = path;
        int result = GetAttrAsSpelled(path, stat, out version);
        if (result != -LibC.ENOENT || Respelled(path) is not { } real)
            return result;
        realPath = real;
        return GetAttrAsSpelled(real, stat, out version);
    }

    private int GetAttrAsSpelled(string path, Span<byte> stat, out FileVersion? version)
    {
        var snapshot = Current; // not Fresh: a reload here would invalidate the entry a LOOKUP is asking for, under the kernel's lock on its folder
        if (snapshot.Archives.TryGetValue(path, out var slot))
        {
            var served = AcquireArchive(snapshot, slot);
            if (served is null)
                return GetAttrAsSpelled(path, stat, out version); // replaced by a reload meanwhile: ask the new snapshot
            try
            {
                version = served.Version;
                return StatOf(served, stat);
            }
            finally
            {
                served.Release();
            }
        }
        bool fromMod = snapshot.Overrides.TryGetValue(path, out var o);
        string real = fromMod ? o!.Override.SourcePath
            : snapshot.AddedFolders.GetValueOrDefault(path) ?? Path.Combine(_gameFolder, path);
        version = null;
        int error = LibC.Stat(real, stat);
        if (error != 0)
            return -error;
        var status = Core.Interop.FileStatus.FromLibcStat(stat);
        if (status.IsRegularFile) // a folder, a FIFO or a device has no version: the kernel handles it
            version = new PlainVersion(real, FileIdentity.From(status, real), fromMod); // as Open names it
        StatFields.MakeReadOnly(stat);
        return 0;
    }

    public FileVersion? VersionOf(ulong handle) => _handles.Get(handle)?.Version;

    private static int StatOf(ServedFile served, Span<byte> stat)
    {
        int error = LibC.Stat(served.StatPath, stat);
        if (error != 0)
            return -error;
        StatFields.MakeReadOnly(stat);
        StatFields.SetSize(stat, served.File.Length);
        if (served.Modified is { } modified)
            StatFields.SetModified(stat, modified);
        return 0;
    }

    public OpenResult Open(string path, int flags)
    {
        if ((flags & LibC.O_ACCMODE) != 0)
            return OpenResult.Failed(LibC.EROFS);
        var opened = OpenAsSpelled(KnownSpelling(path), flags);
        return opened.Errno == LibC.ENOENT && Respelled(path) is { } real ? OpenAsSpelled(real, flags) : opened;
    }

    private OpenResult OpenAsSpelled(string path, int flags)
    {
        var snapshot = Fresh(Current, path);
        ServedFile? served;
        FileVersion version;
        if (snapshot.Archives.TryGetValue(path, out var slot))
        {
            served = AcquireArchive(snapshot, slot);
            if (served is null)
                return OpenAsSpelled(path, flags);
            version = served.Version;
            served.Counters?.Opened();
        }
        else
        {
            VirtualFile file;
            try
            {
                file = snapshot.Game.OpenFile(path);
            }
            catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
            {
                return OpenResult.Failed(LibC.ENOENT);
            }
            bool fromMod = snapshot.Overrides.TryGetValue(path, out var o);
            string source = fromMod ? o!.Override.SourcePath : Path.Combine(_gameFolder, path);
            var identity = file.Files.FirstOrDefault()?.Identity ?? FileIdentity.Of(source);
            served = new ServedFile(file, source, null, null);
            version = new PlainVersion(source, identity, fromMod);
        }

        var (keepCache, directIo, versionChanged) = _pageCache.Opened(path, version);
        if (versionChanged)
            InvalidateEverySpelling(path); // the kernel may still hold the previous version's size (a late getattr, an old handle's short read)
        ulong handle = _handles.Add(new OpenHandle(path, served, version));
        if (_logger.IsEnabled(LogLevel.Debug))
            _logger.LogDebug("open {Path}: handle {Handle}, keep_cache {Keep}, direct_io {Direct}", path, handle, keepCache, directIo);
        return new OpenResult(0, handle, keepCache, directIo);
    }

    /// <summary>A plain file's version: its source and that file's identity (a mod's file replaced in place is another).</summary>
    private sealed record PlainVersion(string Source, FileIdentity Identity, bool FromMod) : FileVersion;

    // Passed through: the game's own files (read straight from the game folder, as without the mount) and merged
    // archives (from a private copy). Not a mod's file: a mod author may rewrite one in place while a game reads it,
    // and served by the host such a reader gets EIO (SourceGuard) where the kernel would hand it a mix of versions.
    public BackingSource? BackingOf(ulong handle) => _handles.Get(handle) is not { } open ? null : open.Version switch
    {
        PlainVersion { FromMod: false } plain => new BackingSource(plain, () => OpenUnchanged(plain)),
        ArchiveVersion { Served: var served } archive when served.PassthroughCopy(m => _logger.LogInformation(LogDetail.Event, "{Path}: {Message}", open.Path, m)) is { } copy
            => new BackingSource(archive, () => copy, CallerDisposes: false),
        _ => null,
    };

    private static Microsoft.Win32.SafeHandles.SafeFileHandle OpenUnchanged(PlainVersion plain)
    {
        var handle = File.OpenHandle(plain.Source);
        if (FileIdentity.Of(handle) == plain.Identity)
            return handle;
        handle.Dispose();
        throw new IOException($"{plain.Source}: changed since it was opened");
    }

    /// <summary>
    /// <paramref name="snapshot"/>, or, when the original of the archive at <paramref name="path"/> changed since it was made
    /// (a game update while mounted, through another path), the snapshot a reload makes of the game as it is now: new opens
    /// get the archive rebuilt from the new original, as after a mod's change. No watcher on the game folder: one stat
    /// per open of a targeted archive (not per lookup: see GetAttrAsSpelled; a stat may show the old size until the next
    /// open). Handles opened before keep their version (read through SourceGuard: EIO, never a mix; a passthrough copy: the
    /// old bytes whole). Safe here: no kernel lock the reload's invalidations need is held while FUSE_OPEN waits.
    /// </summary>
    private MountSnapshot Fresh(MountSnapshot snapshot, string path)
    {
        if (!snapshot.Archives.TryGetValue(path, out var slot) || !slot.OriginalChanged())
            return snapshot;
        lock (_reloadLock)
        {
            if (ReferenceEquals(Current, snapshot)) // else another open has reloaded already
            {
                _logger.LogInformation("{Path}: the game's file changed since it was mounted (a game update?); resolving the mods again, new opens get the archive rebuilt from it", path);
                Reload();
            }
        }
        return Current;
    }

    private ServedFile? AcquireArchive(MountSnapshot snapshot, ArchiveSlot slot) =>
        slot.Acquire(s => _builder.Build(snapshot.Game, s.Route, s.Modified, _counters.GetOrAdd(s.Route.RelativePath, _ => new ReadCounters())));

    // The FUSE edge of a read: below it, (offset, destination) and exceptions; here, a byte count or a negative errno.
    public int Read(ulong handle, long offset, Span<byte> destination)
    {
        var open = _handles.Get(handle);
        if (open is null)
            return -LibC.EIO;
        int read;
        try
        {
            read = open.File.Read(offset, destination, open.Run);
        }
        catch (IOException e) // a source that shrank or vanished (FileSource), or changed under this version (SourceGuard)
        {
            return Unreadable(open, e.Message);
        }
        if (_logger.IsEnabled(LogLevel.Trace))
            _logger.LogTrace("read {Path} at {Offset}: {Bytes} bytes", open.Path, offset, read);
        return read;
    }

    private int Unreadable(OpenHandle open, string why)
    {
        open.File.Counters?.Failed();
        if (open.FirstFailure())
            _logger.LogWarning("read {Path}: {Why}", open.Path, why);
        return -LibC.EIO;
    }

    public int Release(ulong handle)
    {
        if (_handles.Remove(handle) is { } open)
        {
            _pageCache.Closed(open.Path, open.Version);
            open.File.Release();
        }
        return 0;
    }

    public IReadOnlyCollection<string>? ListDirectory(string path, out int error)
    {
        var names = ListAsSpelled(Current, path, out error);
        return names is null && error == LibC.ENOENT && Respelled(path) is { } real ? ListAsSpelled(Current, real, out error) : names;
    }

    private IReadOnlyCollection<string>? ListAsSpelled(MountSnapshot snapshot, string path, out int error)
    {
        var names = new SortedSet<string>(StringComparer.Ordinal);
        string real = Path.Combine(_gameFolder, path);
        bool found = false;
        if (Directory.Exists(real))
        {
            found = true;
            names.UnionWith(GameEntries(real));
        }
        if (snapshot.AddedNames.TryGetValue(path, out var added))
        {
            found = true;
            names.UnionWith(added);
        }
        error = found ? 0 : File.Exists(real) ? LibC.ENOTDIR : LibC.ENOENT;
        return found ? names : null;
    }

    // A symlink is served as what it leads to (docs/DESIGN.md), so one that leads nowhere is not listed: a name whose stat
    // says ENOENT would make `ls -l` fail. Only links pay for the extra stat; readdir's d_type tells them apart.
    private static IEnumerable<string> GameEntries(string folder) =>
        new System.IO.Enumeration.FileSystemEnumerable<string?>(folder,
            static (ref System.IO.Enumeration.FileSystemEntry e) =>
                (e.Attributes & FileAttributes.ReparsePoint) == 0 || LeadsSomewhere(e.ToFullPath()) ? e.FileName.ToString() : null,
            new EnumerationOptions { AttributesToSkip = 0, IgnoreInaccessible = false })
            .OfType<string>();

    private static bool LeadsSomewhere(string link)
    {
        Span<byte> stat = stackalloc byte[256]; // larger than any libc struct stat; only the answer is read
        return LibC.Stat(link, stat) == 0; // follows the link, unlike .NET's Path.Exists (true for one that leads nowhere)
    }

    public int StatFs(Span<byte> statvfs) => -LibC.StatVfs(_gameFolder, statvfs);

    public void Failed(string operation, string path, Exception error)
    {
        if (error is FileNotFoundException or DirectoryNotFoundException)
            return; // an open racing a deletion: EIO is the answer, nothing to report
        if (!_warnings.ShouldLog($"{operation} {path}: {error.Message}", out int skipped))
            return;
        _logger.LogWarning("{Operation} {Path}: {Message}{Repeats}", operation, path, error.Message,
            skipped > 0 ? $" (and {skipped} more time(s) in the last {_warnings.Quiet.TotalSeconds:0} s)" : "");
    }

    /// <summary>Logs what reached the host per archive: opens, reads, bytes and errors.</summary>
    public void LogStatistics()
    {
        foreach (var (path, c) in _counters.OrderBy(p => p.Key, StringComparer.Ordinal))
            _logger.LogInformation(LogDetail.Event, "read statistics {Archive}: {Opens} opens, {Reads} reads, {Bytes} served, {Errors} errors (reads the kernel serves itself, from its page cache or by passthrough, are not counted){Detail}",
                path, c.Opens, c.Reads, Units.Bytes(c.Bytes), c.Errors,
                c.Reads == 0 ? "" : $"; requests by size: {c.SizeHistogram()}; {c.MeanMicroseconds:0} µs each in the host on average");
    }

    public void Dispose() => Current.Dispose();
}
