namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>Bytes of a file on disk, read positionally through a pooled handle.</summary>
public sealed class FileSource : SegmentSource, IBringInAhead
{
    internal FileSource(PooledFile file) => File = file;

    internal PooledFile File { get; }

    /// <summary>The full path of the file.</summary>
    public string Path => File.Path;

    /// <summary>The file's length and mtime when the virtual file was built.</summary>
    public FileIdentity Identity => File.Identity;

    internal override void ReadExactly(long sourceOffset, Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var handle = File.GetHandle();
            int read;
            try
            {
                read = RandomAccess.Read(handle, destination, sourceOffset);
            }
            catch (ObjectDisposedException) when (!File.IsRemoved)
            {
                continue; // the pool evicted this handle mid-read; take a fresh one
            }

            if (read == 0)
                ThrowHelper.ThrowFileShrank(File, sourceOffset, destination.Length);
            destination = destination[read..];
            sourceOffset += read;
        }
    }

    /// <summary>
    /// For a reader going through the file: when [offset, +length) is not cached, brings it in, with the rest of the
    /// slice up to <paramref name="sliceEnd"/> (at most <see cref="BringInLimit"/>), in large folios, waiting for it.
    /// Returns whether the range missed the page cache.
    /// </summary>
    internal bool BringInIfMissing(long sourceOffset, long length, long sliceEnd)
    {
        var handle = File.GetHandle();
        if (PageCacheReads.IsCached(handle, sourceOffset, length))
            return false;
        PageCacheReads.BringIn(handle, sourceOffset, Math.Max(length, Math.Min(sliceEnd - sourceOffset, BringInLimit)), File.Identity.Length);
        return true;
    }

    /// <summary>The most a reader waits to bring in before its read: the slice's next 4 MiB.</summary>
    private const long BringInLimit = 4L << 20;

    /// <summary>
    /// Asks for [offset, +length) ahead of a reader: filled in large folios by the background thread where that does not
    /// pull in much more than asked, else a plain kernel hint (see <see cref="ReadAheadHint"/>).
    /// </summary>
    internal void PrefetchSoon(long sourceOffset, long length, IStreamingReader reader, long doneAt)
    {
        if (PageCacheReads.CanTell)
            BackgroundPrefetch.Enqueue(this, sourceOffset, length, reader, doneAt);
        else
            ReadAheadHint.WillNeedSoon(File.GetHandle(), sourceOffset, length);
    }

    /// <summary>Brings in what is not cached yet of [offset, +length), or hints it; on the background thread.</summary>
    void IBringInAhead.BringInAhead(long offset, long length) => BringInAhead(offset, length);

    internal void BringInAhead(long sourceOffset, long length)
    {
        var handle = File.GetHandle();
        if (PageCacheReads.IsCached(handle, sourceOffset, length))
            return;
        if (!PageCacheReads.BringIn(handle, sourceOffset, length, File.Identity.Length))
            ReadAheadHint.WillNeedSoon(handle, sourceOffset, length);
    }

    public override string Describe() => Path;
}
