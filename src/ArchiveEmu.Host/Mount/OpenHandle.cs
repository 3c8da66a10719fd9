using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Host.Mount;

/// <summary>An open file of the mount: the version it reads (fixed for its lifetime) and where it was opened.</summary>
internal sealed class OpenHandle(string path, ServedFile file, FileVersion version)
{
    private int _failed;

    public string Path { get; } = path;
    public ServedFile File { get; } = file;

    /// <summary>What the page cache policy compares: the served file's version for archives, (source, identity) for plain files.</summary>
    public FileVersion Version { get; } = version;

    /// <summary>This open's reads one after another: a stream is told by them, not by a read's size (<see cref="ReadRun"/>).</summary>
    public ReadRun Run { get; } = new();

    /// <summary>True the first time only: a failing handle is logged once, not once per read.</summary>
    public bool FirstFailure() => Interlocked.Exchange(ref _failed, 1) == 0;
}

/// <summary>Open handles by the id the kernel passes back in fuse_file_info.fh.</summary>
internal sealed class HandleTable
{
    private readonly System.Collections.Concurrent.ConcurrentDictionary<ulong, OpenHandle> _handles = new();
    private long _next;

    public ulong Add(OpenHandle handle)
    {
        ulong id = (ulong)Interlocked.Increment(ref _next); // never 0: 0 means "no handle" in getattr
        _handles[id] = handle;
        return id;
    }

    public OpenHandle? Get(ulong id) => _handles.GetValueOrDefault(id);

    public OpenHandle? Remove(ulong id) => _handles.TryRemove(id, out var handle) ? handle : null;

    public int Count => _handles.Count;
}
