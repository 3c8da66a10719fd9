using System.IO.Compression;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>ZIP method 8: raw deflate (RFC 1951), decoded by System.IO.Compression.</summary>
internal sealed class DeflateCodec : EntryCodec
{
    public static readonly DeflateCodec Instance = new();

    private DeflateCodec() { }

    public override string Name => "deflate";

    public override void Decode(ArchiveSource stored, long contentLength, SafeFileHandle destination)
    {
        using var input = OpenStored(stored);
        using var inflate = new DeflateStream(new StoredBytes(input, stored), CompressionMode.Decompress);
        var buffer = new byte[81920];
        long written = 0;
        try
        {
            int read;
            while ((read = inflate.Read(buffer)) > 0)
            {
                // more than the archive records is damage too, and stops a hostile stream from filling the disk
                if (read > contentLength - written)
                    throw Damaged(stored, $"the deflate stream decodes to more than the {contentLength} bytes the archive records");
                RandomAccess.Write(destination, buffer.AsSpan(0, read), written);
                written += read;
            }
        }
        catch (InvalidDataException e)
        {
            throw Damaged(stored, $"the deflate stream is damaged after {written} decoded bytes ({e.Message})");
        }
        if (written != contentLength)
            throw Damaged(stored, $"the deflate stream decodes to {written} bytes, but the archive records {contentLength}");
    }

    private static ArchiveFormatException Damaged(ArchiveSource stored, string problem) => new(stored.Path, stored.Offset, problem);

    /// <summary>The stored bytes as a forward-only stream of positional reads: nothing outside the entry is read.</summary>
    private sealed class StoredBytes(SafeFileHandle file, ArchiveSource stored) : Stream
    {
        private long _position;

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            int want = (int)Math.Min(buffer.Length, stored.Length - _position);
            if (want <= 0)
                return 0;
            int read = RandomAccess.Read(file, buffer[..want], stored.Offset + _position);
            if (read == 0)
                throw new IOException($"{stored.Path}: shorter than when its index was read (ends before 0x{stored.Offset + _position:X})");
            _position += read;
            return read;
        }

        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => _position; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
