using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Formats;

/// <summary>
/// Bounds-checked positional reads of an original archive for index readers: every read is
/// checked against the file length and a size cap first, so a hostile header field gives an
/// <see cref="ArchiveFormatException"/> instead of an out-of-range read or a huge allocation.
/// Endian-aware helpers read little- and big-endian integers.
/// </summary>
internal sealed class ArchiveFileReader : IDisposable
{
    /// <summary>The largest single header read allowed (a table bigger than this is treated as corrupt).</summary>
    public const int MaxHeaderRead = 256 << 20;

    private readonly SafeFileHandle _handle;
    private readonly long _base;

    private ArchiveFileReader(ArchiveSource source, SafeFileHandle handle)
    {
        Source = source;
        _handle = handle;
        _base = source.Offset;
        Length = source.Length;
    }

    /// <summary>The archive read: a whole file or a slice of one. Offsets given to this reader are relative to its start.</summary>
    public ArchiveSource Source { get; }

    /// <summary>How errors name the archive (the path, plus the slice when it is one).</summary>
    public string Path => Source.Name;

    /// <summary>The archive's size (the slice's, for a slice).</summary>
    public long Length { get; }

    /// <summary>Opens <paramref name="path"/> for reading; a missing file is a <see cref="FileNotFoundException"/> naming it.</summary>
    public static ArchiveFileReader Open(string path) => Open(ArchiveSource.File(path)); // a missing file: FileIdentity's FileNotFoundException names it

    /// <summary>Opens the archive at <paramref name="source"/>; the file must still be as the source saw it (an IOException names it otherwise).</summary>
    public static ArchiveFileReader Open(ArchiveSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(source.Path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw new FileNotFoundException($"{source.Path}: file not found", source.Path, e);
        }
        var now = VirtualFiles.FileIdentity.Of(handle);
        if (now != source.Identity)
        {
            handle.Dispose();
            throw new IOException($"{source.Path}: file changed since it was found (was {source.Identity}; now {now})");
        }
        return new ArchiveFileReader(source, handle);
    }

    /// <summary>Throws an <see cref="ArchiveFormatException"/> for this file.</summary>
    public ArchiveFormatException Corrupt(long offset, string problem) => new(Path, offset, problem);

    /// <summary>True when [offset, offset+count) lies inside the file.</summary>
    public bool Contains(long offset, long count) => offset >= 0 && count >= 0 && offset <= Length - count;

    /// <summary>Checks that [offset, offset+count) lies inside the file; <paramref name="what"/> names the field for the error.</summary>
    public void Require(long offset, long count, string what)
    {
        if (!Contains(offset, count))
            throw Corrupt(offset, $"{what} [{offset}, {offset + count}) is outside the {Length}-byte file");
    }

    /// <summary>Reads exactly <c>destination.Length</c> bytes at <paramref name="offset"/>.</summary>
    public void ReadExactly(long offset, Span<byte> destination, string what)
    {
        Require(offset, destination.Length, what);
        while (!destination.IsEmpty)
        {
            int n = RandomAccess.Read(_handle, destination, _base + offset);
            if (n == 0)
                throw Corrupt(offset, $"{what}: file ended early while reading");
            destination = destination[n..];
            offset += n;
        }
    }

    /// <summary>Reads <paramref name="count"/> bytes into a new array (capped at <see cref="MaxHeaderRead"/>).</summary>
    public byte[] ReadBytes(long offset, long count, string what)
    {
        if (count > MaxHeaderRead)
            throw Corrupt(offset, $"{what} claims {count} bytes, more than the {MaxHeaderRead}-byte limit for a header");
        Require(offset, count, what);
        var bytes = new byte[count];
        ReadExactly(offset, bytes, what);
        return bytes;
    }

    /// <summary>Reads up to <paramref name="count"/> bytes from the start of the file (fewer if it is shorter).</summary>
    public byte[] ReadHead(int count) => ReadBytes(0, Math.Min(count, Length), "file head");

    public ushort ReadUInt16LE(long offset, string what) { Span<byte> b = stackalloc byte[2]; ReadExactly(offset, b, what); return BinaryPrimitives.ReadUInt16LittleEndian(b); }
    public uint ReadUInt32LE(long offset, string what) { Span<byte> b = stackalloc byte[4]; ReadExactly(offset, b, what); return BinaryPrimitives.ReadUInt32LittleEndian(b); }
    public ulong ReadUInt64LE(long offset, string what) { Span<byte> b = stackalloc byte[8]; ReadExactly(offset, b, what); return BinaryPrimitives.ReadUInt64LittleEndian(b); }
    public ushort ReadUInt16BE(long offset, string what) { Span<byte> b = stackalloc byte[2]; ReadExactly(offset, b, what); return BinaryPrimitives.ReadUInt16BigEndian(b); }
    public uint ReadUInt32BE(long offset, string what) { Span<byte> b = stackalloc byte[4]; ReadExactly(offset, b, what); return BinaryPrimitives.ReadUInt32BigEndian(b); }

    public void Dispose() => _handle.Dispose();
}
