using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Fuse;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// One version of a file the mount serves: its bytes (a virtual file), what stat reports for it, and a
/// reference count so a version replaced by a hot reload lives until its last open handle is released.
/// </summary>
internal sealed class ServedFile
{
    private readonly SourceGuard? _guard;
    private readonly PassthroughFile? _passthrough;
    private readonly object _copyLock = new();
    private SafeFileHandle? _copy;
    private bool _copyFailed;
    private int _makeStarted;
    private int _references = 1;

    /// <param name="file">The bytes; disposed with the last reference.</param>
    /// <param name="statPath">The real file whose stat(2) describes this one (ownership, times, inode).</param>
    /// <param name="modified">The mtime to report instead of statPath's, or null to keep it.</param>
    /// <param name="counters">Read statistics to add to, or null for files nobody reports on.</param>
    /// <param name="passthrough">How a real file for FUSE passthrough may be made of it (merged and emulated archives), or null for none.</param>
    public ServedFile(VirtualFile file, string statPath, DateTime? modified, ReadCounters? counters, PassthroughFile? passthrough = null)
    {
        _passthrough = passthrough;
        File = file;
        StatPath = statPath;
        Modified = modified;
        Counters = counters;
        _guard = SourceGuard.For(file);
        Version = new ArchiveVersion(this);
    }

    /// <summary>This version of the path, made once: what the page-cache policy and the kernel's nodes compare.</summary>
    public ArchiveVersion Version { get; }

    public VirtualFile File { get; }
    public string StatPath { get; }
    public DateTime? Modified { get; }
    public ReadCounters? Counters { get; }

    /// <summary>
    /// pread by the open whose run is <paramref name="reader"/>: the bytes at <paramref name="offset"/>; an
    /// <see cref="IOException"/> when a file they came from changed since this version was built (checked after reading,
    /// over the segments the read found, so a reader never gets a mix of old and new bytes).
    /// </summary>
    public int Read(long offset, Span<byte> destination, ReadRun reader)
    {
        long start = System.Diagnostics.Stopwatch.GetTimestamp();
        int read = _guard is null ? File.Read(offset, destination, reader) : File.ReadChecked(offset, destination, reader, _guard);
        Counters?.Add(destination.Length, read, start);
        return read;
    }

    /// <summary>
    /// The real file the kernel can read in this version's place (<see cref="PassthroughFile"/>); null when this version
    /// has none, or when making it failed (logged once; the host serves it then). One quick to make (a merged archive's
    /// copy) is made at the first call. One slow to make (a clone, <see cref="PassthroughFile.MadeAhead"/>) is only handed
    /// out once made: the build-ahead makes it, or, after a hot reload, the first call starts making it in the background;
    /// until then the host serves, so no open waits for it.
    /// </summary>
    public SafeFileHandle? PassthroughCopy(Action<string> log)
    {
        if (_passthrough is null)
            return null;
        if (!_passthrough.MadeAhead)
            return MakeNow(log);
        if (Volatile.Read(ref _copy) is { } made)
            return made;
        if (Interlocked.Exchange(ref _makeStarted, 1) == 0 && TryAcquire()) // the reference keeps File open while it is read
            ThreadPool.UnsafeQueueUserWorkItem(_ => MakeInBackground(log), null);
        return null;
    }

    /// <summary>Makes this version's passthrough file now when it is slow to make (<see cref="PassthroughFile.MadeAhead"/>), so a first open does not wait for it.</summary>
    public void MakePassthroughAhead(Action<string> log)
    {
        if (_passthrough is not { MadeAhead: true })
            return;
        Volatile.Write(ref _makeStarted, 1);
        MakeNow(log);
    }

    private void MakeInBackground(Action<string> log)
    {
        try
        {
            MakeNow(log);
        }
        catch (Exception e) // on a pool thread an escaped exception would end the host: the reads are served all the same
        {
            log($"no passthrough copy, the host serves it: {e.Message}");
        }
        finally
        {
            Release();
        }
    }

    private SafeFileHandle? MakeNow(Action<string> log)
    {
        lock (_copyLock)
        {
            if (_copy is not null || _copyFailed || Volatile.Read(ref _references) <= 0)
                return _copy;
            try
            {
                if (_passthrough!.Make(File, () => _guard?.AllUnchanged() ?? true, log) is var (handle, made))
                {
                    Volatile.Write(ref _copy, handle);
                    log(made);
                }
                else
                    _copyFailed = true;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                _copyFailed = true;
                log($"no passthrough copy, the host serves it: {e.Message}");
            }
            return _copy;
        }
    }

    /// <summary>Takes one more reference, unless the last one is already gone (then false: the caller must look again).</summary>
    public bool TryAcquire()
    {
        int seen = Volatile.Read(ref _references);
        while (seen > 0)
        {
            int was = Interlocked.CompareExchange(ref _references, seen + 1, seen);
            if (was == seen)
                return true;
            seen = was;
        }
        return false;
    }

    public void Release()
    {
        if (Interlocked.Decrement(ref _references) != 0)
            return;
        File.Dispose();
        lock (_copyLock)
            _copy?.Dispose(); // a backing file the kernel still reads from stays open on its side
    }
}

/// <summary>
/// Per-archive read statistics, reported at shutdown. Reads served by the kernel page cache never get here. The requests'
/// sizes (a normal user's mount gets at most 128 KiB, root's up to 1 MiB) and the time they took in the host say what the
/// kernel asks for and what serving it costs (issue 47).
/// </summary>
internal sealed class ReadCounters
{
    /// <summary>The upper bounds of the request-size buckets; a last bucket holds the larger ones.</summary>
    private static readonly int[] SizeBounds = [4 << 10, 16 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];

    private readonly long[] _bySize = new long[SizeBounds.Length + 1];
    private long _opens, _reads, _bytes, _errors, _ticks;

    public long Opens => Interlocked.Read(ref _opens);
    public long Reads => Interlocked.Read(ref _reads);
    public long Bytes => Interlocked.Read(ref _bytes);
    public long Errors => Interlocked.Read(ref _errors);

    public void Opened() => Interlocked.Increment(ref _opens);

    /// <summary>One request for <paramref name="asked"/> bytes that read <paramref name="bytes"/>, started at timestamp <paramref name="start"/>.</summary>
    public void Add(int asked, int bytes, long start)
    {
        Interlocked.Increment(ref _reads);
        Interlocked.Add(ref _bytes, bytes);
        Interlocked.Add(ref _ticks, System.Diagnostics.Stopwatch.GetTimestamp() - start);
        int bucket = 0;
        while (bucket < SizeBounds.Length && asked > SizeBounds[bucket])
            bucket++;
        Interlocked.Increment(ref _bySize[bucket]);
    }

    /// <summary>The mean time a request spent in the host, in µs.</summary>
    public double MeanMicroseconds => Reads == 0 ? 0 : Interlocked.Read(ref _ticks) * 1e6 / System.Diagnostics.Stopwatch.Frequency / Reads;

    /// <summary>The requests by size, "≤ 4 KiB 12, ≤ 128 KiB 400, …", the empty buckets left out.</summary>
    public string SizeHistogram() => string.Join(", ", _bySize.Select((count, i) => (count, i)).Where(b => b.count > 0)
        .Select(b => $"{(b.i < SizeBounds.Length ? "≤ " + Units.Bytes(SizeBounds[b.i]) : "more")} {b.count}"));

    public void Failed() => Interlocked.Increment(ref _errors);
}

/// <summary>An archive's version: its served file (one per build; equal only to itself).</summary>
internal sealed record ArchiveVersion(ServedFile Served) : FileVersion;
