namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>A read-only, seekable <see cref="Stream"/> over a <see cref="VirtualFile"/>, for consumers that need a stream.</summary>
public sealed class VirtualFileStream : Stream
{
    private readonly VirtualFile _file;
    private readonly ReadRun _run = new(); // this stream's own: several streams over one file each keep their stream
    private readonly bool _ownsFile;
    private long _position;

    internal VirtualFileStream(VirtualFile file, bool ownsFile)
    {
        _file = file;
        _ownsFile = ownsFile;
    }

    public override bool CanRead => true;
    public override bool CanSeek => true;
    public override bool CanWrite => false;
    public override long Length => _file.Length;

    public override long Position
    {
        get => _position;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _position = value;
        }
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return Read(buffer.AsSpan(offset, count));
    }

    public override int Read(Span<byte> buffer)
    {
        int read = _file.Read(_position, buffer, _run);
        _position += read;
        return read;
    }

    public override int ReadByte()
    {
        Span<byte> one = stackalloc byte[1];
        return Read(one) == 1 ? one[0] : -1;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    // RS0027 flags this override, but its optional token is Stream's own signature, not a choice made here.
#pragma warning disable RS0027
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }
#pragma warning restore RS0027

    public override long Seek(long offset, SeekOrigin origin)
    {
        long target = origin switch
        {
            SeekOrigin.Begin => offset,
            SeekOrigin.Current => _position + offset,
            SeekOrigin.End => _file.Length + offset,
            _ => throw new ArgumentOutOfRangeException(nameof(origin)),
        };
        if (target < 0)
            throw new IOException($"Seek to {target} is before the start of the stream.");
        return _position = target;
    }

    public override void Flush() { }
    public override void SetLength(long value) => throw new NotSupportedException("The virtual file is read-only.");
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("The virtual file is read-only.");

    protected override void Dispose(bool disposing)
    {
        if (disposing && _ownsFile)
            _file.Dispose();
        base.Dispose(disposing);
    }
}
