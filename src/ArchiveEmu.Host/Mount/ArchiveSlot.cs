using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// A targeted archive in one mount snapshot: built on first use (stat or open) and kept until the
/// snapshot is replaced. Open handles hold their own reference, so replacing the slot never cuts a reader off.
/// </summary>
/// <param name="original">The original's identity when the snapshot was made (<see cref="IdentityOf"/>), null if it could not be read.</param>
internal sealed class ArchiveSlot(ArchiveRoute route, string keyHash, DateTime modified, FileIdentity? original)
{
    private readonly object _lock = new();
    private readonly FileIdentity? _original = original;
    private readonly object _seenLock = new();
    private FileIdentity? _seen;
    private ServedFile? _file;
    private bool _released;

    public ArchiveRoute Route { get; } = route;

    /// <summary>The merged-cache key of the route's inputs when the snapshot was made: equal keys mean equal bytes.</summary>
    public string KeyHash { get; } = keyHash;

    /// <summary>The newest mtime among the original and the injected files.</summary>
    public DateTime Modified { get; } = modified;

    public bool IsBuilt { get { lock (_lock) return _file is not null; } }

    /// <summary>
    /// Whether the original (the game's file) is no longer the one this slot was made for — a game update while mounted,
    /// through another path than the mount — as <see cref="SourceGuard"/> tells a changed file: size, mtime, ctime, inode.
    /// One stat. True once per new identity seen, so a change that cannot be resolved is not retried at every open.
    /// </summary>
    public bool OriginalChanged()
    {
        if (_original is not { } was)
            return false; // unreadable when the snapshot was made: building it says why
        var now = IdentityOf(Route.GamePath);
        if (now == was)
            return false;
        lock (_seenLock) // not _lock: a build holds that
        {
            if (now == _seen)
                return false;
            _seen = now;
            return true;
        }
    }

    /// <summary>The identity of the file at <paramref name="path"/>, or null when it is gone or no regular file.</summary>
    public static FileIdentity? IdentityOf(string path)
    {
        try
        {
            return FileIdentity.Of(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // gone, or not a regular file any more
        }
    }

    /// <summary>The built archive with one reference for the caller, or null if this snapshot was replaced meanwhile.</summary>
    public ServedFile? Acquire(Func<ArchiveSlot, ServedFile> build)
    {
        lock (_lock)
        {
            if (_released)
                return null;
            _file ??= build(this); // under the lock: concurrent first opens build once
            return _file.TryAcquire() ? _file : null;
        }
    }

    /// <summary>Takes over a previous snapshot's build of the same inputs.</summary>
    public void Adopt(ArchiveSlot previous)
    {
        lock (previous._lock)
            if (previous._file is { } file && file.TryAcquire())
                lock (_lock)
                    _file = file;
    }

    public void Release()
    {
        lock (_lock)
        {
            _released = true;
            _file?.Release();
            _file = null;
        }
    }
}
