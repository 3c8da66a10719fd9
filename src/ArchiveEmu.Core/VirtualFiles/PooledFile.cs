using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// One file known to a <see cref="FileHandlePool"/>: its identity at build time, how many virtual
/// files use it, and its open handle while the pool keeps one.
/// </summary>
internal sealed class PooledFile
{
    private volatile SafeFileHandle? _handle;

    public PooledFile(FileHandlePool pool, string path, FileIdentity identity)
    {
        Pool = pool;
        Path = path;
        Identity = identity;
    }

    public FileHandlePool Pool { get; }
    public string Path { get; }
    public FileIdentity Identity { get; }

    /// <summary>Virtual files that hold this file; guarded by the pool's lock.</summary>
    public int Users { get; set; }

    /// <summary>Set once the last user let go: no handle will be opened for it again.</summary>
    public bool IsRemoved { get; set; }

    /// <summary>Second-chance bit for the pool's CLOCK eviction: set on use, cleared by the sweep.</summary>
    public bool Referenced { get; set; }

    /// <summary>Position in the pool's list of open files; guarded by the pool's lock.</summary>
    public int OpenSlot { get; set; } = -1;

    public SafeFileHandle? Handle
    {
        get => _handle;
        set => _handle = value;
    }

    /// <summary>The open handle, opening (and perhaps evicting another) only on a miss.</summary>
    public SafeFileHandle GetHandle()
    {
        var handle = _handle;
        if (handle is null)
            return Pool.Open(this);
        if (!Referenced)
            Referenced = true; // write only when it changes: keeps the cache line shared across readers
        return handle;
    }
}
