namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>Bytes of a file on disk, read positionally through a pooled handle.</summary>
internal sealed class FileSource : SegmentSource, IBringInAhead
{
    internal FileSource(PooledFile file) => File = file;

    internal PooledFile File { get; }

    /// <summary>The full path of the file.</summary>
    public string Path => File.Path;

    /// <summary>The file's length and mtime when the virtual file was built.</summary>
    public FileIdentity Identity => File.Identity;

    internal override void ReadExactly(long sourceOffset, Span<byte> destination)
    {
        // One pread fills a read in all but rare cases (a signal, a file that shrank): that path keeps its state in registers,
        // the rest is apart (measured: the loop around a try region kept the span on the stack and sliced it by a call).
        if (destination.IsEmpty)
            return;
        int read;
        try
        {
            read = ReadThroughCurrentHandle(sourceOffset, destination);
        }
        catch (ObjectDisposedException) when (!File.IsRemoved)
        {
            read = ReadOnce(sourceOffset, destination); // the pool evicted the handle between taking it and the pread
        }
        if (read != destination.Length)
            ReadRest(sourceOffset, destination, read);
    }

    /// <summary>
    /// The pread, in a method of its own with no try region: inside one the JIT calls the P/Invoke through its stub instead of
    /// inline (issue 34: a file-backed 4 KiB read cost +37–52 ns over a direct pread with the call in the try, ~0 without).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private int ReadThroughCurrentHandle(long sourceOffset, Span<byte> destination) => RandomAccess.Read(File.GetHandle(), destination, sourceOffset);

    private int ReadOnce(long sourceOffset, Span<byte> destination)
    {
        while (true)
        {
            var handle = File.GetHandle();
            try
            {
                return RandomAccess.Read(handle, destination, sourceOffset);
            }
            catch (ObjectDisposedException) when (!File.IsRemoved)
            {
                // the pool evicted this handle mid-read; take a fresh one
            }
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void ReadRest(long sourceOffset, Span<byte> destination, int read)
    {
        while (true)
        {
            if (read == 0)
                ThrowHelper.ThrowFileShrank(File, sourceOffset, destination.Length);
            destination = destination[read..];
            sourceOffset += read;
            if (destination.IsEmpty)
                return;
            read = ReadOnce(sourceOffset, destination);
        }
    }

    /// <summary>Whether any page of [offset, +length) is not in the page cache (false when the kernel cannot tell).</summary>
    internal bool IsMissing(long sourceOffset, long length) => !PageCacheReads.IsCached(File.GetHandle(), sourceOffset, length);

    /// <summary>
    /// For a reader going through the file that found [offset, +length) not cached: brings it in with the rest of the
    /// slice up to <paramref name="sliceEnd"/> (at most <paramref name="limit"/>: <see cref="PageCacheStreaming.BringInBytes"/>) in
    /// large folios, waiting for it. <paramref name="neighboursNeeded"/> counts what else the reader needs near it (see <see cref="PageCacheReads.BringIn"/>).
    /// </summary>
    internal void BringInForReader(long sourceOffset, long length, long sliceEnd, long limit, Func<long, long, long> neighboursNeeded)
    {
        long want = Math.Max(length, Math.Min(sliceEnd - sourceOffset, limit));
        var (spanStart, spanEnd) = PageCacheReads.Span(sourceOffset, want, File.Identity.Length);
        PageCacheReads.BringIn(File.GetHandle(), sourceOffset, want, File.Identity.Length, neighboursNeeded(spanStart, spanEnd));
    }

    /// <summary>
    /// Asks for [offset, +length) ahead of a reader: filled in large folios by the background thread where that does not
    /// pull in much more than asked, else a plain kernel hint (see <see cref="ReadAheadHint"/>).
    /// </summary>
    internal void PrefetchSoon(long sourceOffset, long length, long alsoNeeded, IStreamingReader reader, long doneAt)
    {
        if (PageCacheReads.CanTell)
            BackgroundPrefetch.Enqueue(this, sourceOffset, length, alsoNeeded, reader, doneAt);
        else
            ReadAheadHint.WillNeedSoon(File.GetHandle(), sourceOffset, length);
    }

    /// <summary>Brings in what is not cached yet of [offset, +length), or hints it; on the background thread.</summary>
    void IBringInAhead.BringInAhead(long offset, long length, long alsoNeeded) => BringInAhead(offset, length, alsoNeeded);

    internal void BringInAhead(long sourceOffset, long length, long alsoNeeded)
    {
        var handle = File.GetHandle();
        if (PageCacheReads.IsCached(handle, sourceOffset, length))
            return;
        if (!PageCacheReads.BringIn(handle, sourceOffset, length, File.Identity.Length, alsoNeeded))
            ReadAheadHint.WillNeedSoon(handle, sourceOffset, length);
    }

    public override string Describe() => Path;
}
