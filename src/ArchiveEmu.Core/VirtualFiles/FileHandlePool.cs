using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// A bounded, shared set of open read handles for the files virtual files draw on. At most
/// <see cref="Capacity"/> handles are open at once; the least recently used one (CLOCK
/// approximation) is closed to open another. A file's handle closes when its last virtual file is
/// disposed, so disposing every virtual file leaves no handle open.
/// </summary>
public sealed class FileHandlePool
{
    private readonly object _lock = new();
    private readonly Dictionary<(string Path, FileIdentity Identity), PooledFile> _files = new();
    private readonly List<PooledFile> _open = new();
    private int _clockHand;
    private long _opens;

    private readonly FileOptions _openOptions;

    /// <summary>Creates a pool that keeps at most <paramref name="capacity"/> handles open.</summary>
    /// <param name="capacity">The most handles open at once.</param>
    /// <param name="openOptions">How handles are opened. The default, <see cref="FileOptions.None"/>, keeps the kernel's
    /// read-ahead: <see cref="FileOptions.RandomAccess"/> (FADV_RANDOM) turns it off, and the pages reads then bring in are
    /// small folios that read back slowly while cached (bench: warm emulated 0.23× of solid with it, 0.41× without;
    /// the mount's cold emulated reads 432 → 870–1200 MB/s). Pass RandomAccess for readers that truly only seek.</param>
    public FileHandlePool(int capacity, FileOptions openOptions = FileOptions.None)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        Capacity = capacity;
        _openOptions = openOptions;
    }

    /// <summary>
    /// How virtual files over this pool's files use the page cache for readers streaming through them (bring-in and reading
    /// ahead, <see cref="StreamingBringIn"/>); the host's <c>ArchiveEmu:BringIn=false</c> turns it off for its game.
    /// </summary>
    internal PageCacheStreaming Streaming { get; init; } = PageCacheStreaming.ForVirtualFiles;

    /// <summary>The pool used when a builder is given none.</summary>
    public static FileHandlePool Shared { get; } = new(512);

    /// <summary>The most handles open at once.</summary>
    public int Capacity { get; }

    /// <summary>Handles open right now.</summary>
    public int OpenHandleCount { get { lock (_lock) return _open.Count; } }

    /// <summary>Files in use by at least one live virtual file.</summary>
    public int FileCount { get { lock (_lock) return _files.Count; } }

    /// <summary>Files opened since the pool was created (re-opens after eviction included).</summary>
    public long OpenCount => Interlocked.Read(ref _opens);

    /// <summary>
    /// Registers one more user of the file, as it is now or as the caller saw it (<paramref name="expected"/>,
    /// which saves a stat per file; a file that no longer matches fails when its handle opens).
    /// </summary>
    internal PooledFile Acquire(string path, FileIdentity? expected)
    {
        var fullPath = System.IO.Path.GetFullPath(path);
        var now = expected ?? FileIdentity.Of(fullPath);

        lock (_lock)
        {
            if (!_files.TryGetValue((fullPath, now), out var file))
            {
                file = new PooledFile(this, fullPath, now);
                _files.Add((fullPath, now), file);
            }
            file.Users++;
            return file;
        }
    }

    /// <summary>Drops one user; the last one closes the handle and forgets the file.</summary>
    internal void Release(PooledFile file)
    {
        lock (_lock)
        {
            if (--file.Users > 0)
                return;
            file.IsRemoved = true;
            _files.Remove((file.Path, file.Identity));
            CloseLocked(file);
        }
    }

    /// <summary>Opens a handle for a file whose handle was evicted or never opened.</summary>
    internal SafeFileHandle Open(PooledFile file)
    {
        lock (_lock)
        {
            if (file.IsRemoved)
                ThrowHelper.ThrowDisposed($"virtual file over {file.Path}");
            if (file.Handle is { } raced)
                return raced;

            while (_open.Count >= Capacity)
                EvictOneLocked();

            var handle = OpenChecked(file, _openOptions);
            file.Handle = handle;
            file.Referenced = true;
            file.OpenSlot = _open.Count;
            _open.Add(file);
            _opens++;
            return handle;
        }
    }

    private static SafeFileHandle OpenChecked(PooledFile file, FileOptions options)
    {
        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(file.Path, FileMode.Open, FileAccess.Read,
                FileShare.ReadWrite | FileShare.Delete, options);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw new IOException($"{file.Path}: file vanished since the archive was built", e);
        }

        var now = FileIdentity.Of(handle);
        if (now != file.Identity)
        {
            handle.Dispose();
            throw new IOException($"{file.Path}: file changed since the archive was built (was {file.Identity}; now {now})");
        }
        return handle;
    }

    private void EvictOneLocked()
    {
        // CLOCK: skip (and clear) recently used files once, evict the first one not used since.
        while (true)
        {
            if (_clockHand >= _open.Count)
                _clockHand = 0;
            var candidate = _open[_clockHand];
            if (candidate.Referenced)
            {
                candidate.Referenced = false;
                _clockHand++;
                continue;
            }
            CloseLocked(candidate);
            return;
        }
    }

    private void CloseLocked(PooledFile file)
    {
        var handle = file.Handle;
        if (handle is null)
            return;
        file.Handle = null;

        int slot = file.OpenSlot, last = _open.Count - 1;
        _open[slot] = _open[last];
        _open[slot].OpenSlot = slot;
        _open.RemoveAt(last);
        file.OpenSlot = -1;

        // A reader still inside RandomAccess.Read holds a reference: SafeHandle defers the close to it.
        handle.Dispose();
    }
}
