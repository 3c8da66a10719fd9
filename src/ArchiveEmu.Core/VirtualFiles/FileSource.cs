namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>Bytes of a file on disk, read positionally through a pooled handle.</summary>
public sealed class FileSource : SegmentSource
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

    /// <summary>Hints the kernel to start reading [offset, +length) of the file (see <see cref="ReadAheadHint"/>).</summary>
    internal void WillNeedSoon(long sourceOffset, long length) =>
        ReadAheadHint.WillNeedSoon(File.GetHandle(), sourceOffset, length);

    public override string Describe() => Path;
}
