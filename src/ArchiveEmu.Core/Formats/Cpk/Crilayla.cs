using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// CRI's CRILAYLA compression, as CPK entries are stored (docs/FORMATS.md, "CRILAYLA"): a 16-byte header ("CRILAYLA",
/// u32 LE size of the compressed part's output, u32 LE size of the compressed part), the compressed part, then the
/// content's first 0x100 bytes raw. The compressed part is read as bits from its last byte towards its first and fills the
/// content from its end towards 0x100. Decoded through an 8 KiB window, so no size in the stream allocates more than that.
/// </summary>
internal sealed class Crilayla : EntryCodec
{
    public static readonly Crilayla Instance = new();

    private Crilayla() { }

    public override string Name => "CRILAYLA";

    /// <summary>The header: magic, output size of the compressed part, size of the compressed part.</summary>
    public const int HeaderSize = 0x10;

    /// <summary>The content's first bytes, stored raw after the compressed part.</summary>
    public const int RawPrefixSize = 0x100;

    /// <summary>Output bytes one input byte can give at most: 8 bits of a length extension add 255, a literal takes 9 bits.</summary>
    private const long MaxRatio = 256;

    /// <summary>Ring of decoded bytes: the 8194-byte window a back-reference reaches (13 bits + 3) plus what is not yet written out.</summary>
    private const int RingSize = 1 << 15;

    /// <summary>The most <see cref="Decode(ReadOnlySpan{byte}, string)"/> decodes into an array.</summary>
    private const long InMemoryLimit = 64L << 20;

    private static ReadOnlySpan<byte> Magic => "CRILAYLA"u8;

    /// <summary>Reads <paramref name="destination"/>.Length stored bytes from <paramref name="offset"/> (relative to the stream's start).</summary>
    internal delegate void ReadAt(long offset, Span<byte> destination);

    /// <summary>Writes decoded bytes at <paramref name="offset"/> of the content.</summary>
    internal delegate void WriteAt(long offset, ReadOnlySpan<byte> bytes);

    public override void Decode(ArchiveSource stored, long contentLength, SafeFileHandle destination)
    {
        using var input = OpenStored(stored);
        Decode(stored.Length, contentLength, stored.Path, stored.Offset,
            (offset, span) => ReadStored(input, stored, offset, span),
            (offset, bytes) => RandomAccess.Write(destination, bytes, offset));
    }

    /// <summary>Decodes a stream held in memory (tests, small entries); <paramref name="name"/> names it in errors.</summary>
    public static byte[] Decode(ReadOnlySpan<byte> stored, string name)
    {
        var header = ReadHeader(stored.Length, stored[..Math.Min(stored.Length, HeaderSize)], name, 0);
        if (header.ContentLength > InMemoryLimit)
            throw new ArchiveFormatException(name, 8, $"{header.ContentLength} bytes of content are too many to decode in memory; decode it to a file");
        var content = new byte[header.ContentLength];
        var copy = stored.ToArray();
        Decode(copy.Length, header.ContentLength, name, 0, (offset, span) => copy.AsSpan((int)offset, span.Length).CopyTo(span),
            (offset, bytes) => bytes.CopyTo(content.AsSpan((int)offset)));
        return content;
    }

    private readonly record struct Header(long CompressedLength, long ContentLength);

    private static Header ReadHeader(long storedLength, ReadOnlySpan<byte> header, string name, long at)
    {
        if (storedLength < HeaderSize + RawPrefixSize || header.Length < HeaderSize)
            throw new ArchiveFormatException(name, at, $"a CRILAYLA stream of {storedLength} bytes is shorter than its 0x10-byte header and 0x100-byte raw prefix");
        if (!header.StartsWith(Magic))
            throw new ArchiveFormatException(name, at, "the entry does not start with the CRILAYLA magic");
        long outputLength = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        long compressedLength = BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        // Bytes after the raw prefix are ignored, as the published decoders (CriFsV2Lib, CriPakTools) read the prefix where
        // the header puts it, not at the stream's end: a packer that pads an entry must not make it unreadable here.
        if (HeaderSize + compressedLength + RawPrefixSize > storedLength)
            throw new ArchiveFormatException(name, at + 12, $"the CRILAYLA header puts the raw prefix at 0x{HeaderSize + compressedLength:X}, "
                + $"past the end of a stream of 0x{storedLength:X} bytes");
        if (outputLength > compressedLength * MaxRatio)
            throw new ArchiveFormatException(name, at + 8, $"the CRILAYLA header claims {outputLength} compressed bytes of content, "
                + $"more than {compressedLength} bytes of CRILAYLA can encode");
        return new Header(compressedLength, RawPrefixSize + outputLength);
    }

    private static void Decode(long storedLength, long contentLength, string name, long at, ReadAt read, WriteAt write)
    {
        Span<byte> headerBytes = stackalloc byte[HeaderSize];
        if (storedLength >= HeaderSize)
            read(0, headerBytes);
        var header = ReadHeader(storedLength, headerBytes, name, at);
        if (header.ContentLength != contentLength)
            throw new ArchiveFormatException(name, at + 8, $"the CRILAYLA header gives {header.ContentLength} bytes of content, but the archive records {contentLength}");

        var bits = new BackwardBits(read, HeaderSize, HeaderSize + header.CompressedLength, name, at);
        var ring = new byte[RingSize];
        long end = contentLength, pos = end, flushedFrom = end; // bytes [pos, end) decoded, [flushedFrom, end) written out
        while (pos > RawPrefixSize)
        {
            if (bits.Read(1) == 0)
            {
                ring[(int)(--pos & (RingSize - 1))] = (byte)bits.Read(8);
            }
            else
            {
                long referenceAt = bits.Position;
                int distance = bits.Read(13) + 3;
                long length = ReadLength(ref bits);
                if (pos + distance > end)
                    throw new ArchiveFormatException(name, at + referenceAt, $"a back-reference {distance} bytes back reaches past the end of the content "
                        + $"(at content offset 0x{pos:X} of 0x{end:X})");
                if (length > pos - RawPrefixSize)
                    throw new ArchiveFormatException(name, at + referenceAt, $"a back-reference of {length} bytes runs into the raw prefix "
                        + $"(only {pos - RawPrefixSize} bytes of compressed content are left)");
                for (long i = 0; i < length; i++)
                {
                    --pos;
                    ring[(int)(pos & (RingSize - 1))] = ring[(int)((pos + distance) & (RingSize - 1))];
                    if (flushedFrom - pos >= RingSize / 2)
                        flushedFrom = Flush(ring, pos, flushedFrom, write);
                }
            }
            if (flushedFrom - pos >= RingSize / 2)
                flushedFrom = Flush(ring, pos, flushedFrom, write);
        }
        Flush(ring, pos, flushedFrom, write);

        Span<byte> prefix = stackalloc byte[RawPrefixSize];
        read(HeaderSize + header.CompressedLength, prefix);
        write(0, prefix);
    }

    /// <summary>A back-reference's length: 3, plus fields of 2, 3, 5 and then 8 bits, each read only when the one before was all ones.</summary>
    private static long ReadLength(ref BackwardBits bits)
    {
        long length = 3;
        foreach (int width in (ReadOnlySpan<int>)[2, 3, 5])
        {
            int value = bits.Read(width);
            length += value;
            if (value != (1 << width) - 1)
                return length;
        }
        int more;
        do
        {
            more = bits.Read(8);
            length += more;
        }
        while (more == 0xFF);
        return length;
    }

    /// <summary>Writes decoded bytes [<paramref name="from"/>, <paramref name="to"/>) out of the ring; returns the new written-out start.</summary>
    private static long Flush(byte[] ring, long from, long to, WriteAt write)
    {
        for (long at = from; at < to;)
        {
            int slot = (int)(at & (RingSize - 1));
            int run = (int)Math.Min(to - at, RingSize - slot);
            write(at, ring.AsSpan(slot, run));
            at += run;
        }
        return from;
    }

    private static void ReadStored(SafeFileHandle input, ArchiveSource stored, long offset, Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            int read = RandomAccess.Read(input, destination, stored.Offset + offset);
            if (read == 0)
                throw new IOException($"{stored.Path}: shorter than when its index was read (ends before 0x{stored.Offset + offset:X})");
            destination = destination[read..];
            offset += read;
        }
    }

    /// <summary>The compressed part's bits, most significant first, from its last byte towards its first; buffered 64 KiB at a time.</summary>
    private struct BackwardBits(ReadAt read, long start, long end, string name, long at)
    {
        private readonly byte[] _buffer = new byte[Math.Min(1 << 16, Math.Max(1, end - start))];
        private long _bufferStart = end, _next = end; // the next byte to take is _next - 1
        private int _current, _bitsLeft;

        /// <summary>Where the byte being read is, relative to the stream's start (for errors).</summary>
        public readonly long Position => _next;

        public int Read(int count)
        {
            int value = 0;
            while (count > 0)
            {
                if (_bitsLeft == 0)
                {
                    if (_next == start)
                        throw new ArchiveFormatException(name, at + start, "the CRILAYLA bit stream ends before the content is complete (it would read before its start)");
                    if (_next == _bufferStart)
                        Refill();
                    _current = _buffer[(int)(--_next - _bufferStart)];
                    _bitsLeft = 8;
                }
                int take = Math.Min(count, _bitsLeft);
                value = (value << take) | ((_current >> (_bitsLeft - take)) & ((1 << take) - 1));
                _bitsLeft -= take;
                count -= take;
            }
            return value;
        }

        private void Refill()
        {
            long from = Math.Max(start, _bufferStart - _buffer.Length);
            read(from, _buffer.AsSpan(0, (int)(_bufferStart - from)));
            _bufferStart = from;
        }
    }
}
