using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>
/// The bytes of an injected entry: a loose file, a slice of a file, bytes in memory, or another virtual file (an emulated
/// archive inside this one). Builders
/// append it to a virtual file as a segment (never a copy); <see cref="Read"/> serves the few
/// formats that must look at the bytes (a ZIP CRC, a nested archive's index).
/// </summary>
public sealed class EntryInput
{
    private EntryInput(string? path, long offset, long length, ReadOnlyMemory<byte> bytes, FileIdentity? identity = null, VirtualFile? file = null, string? name = null)
    {
        File = file;
        _name = name;
        Identity = identity;
        Path = path;
        Offset = offset;
        Length = length;
        Bytes = bytes;
    }

    private readonly string? _name;

    /// <summary>How messages name a virtual file's bytes (<see cref="FromVirtualFile"/>), else null.</summary>
    internal string? Name => _name;

    /// <summary>The virtual file the bytes come from (an emulated inner archive), or null.</summary>
    public VirtualFile? File { get; }

    /// <summary>The file the bytes come from, or null for in-memory bytes and virtual files.</summary>
    public string? Path { get; }

    /// <summary>The file's size and mtime when the input was made (null for in-memory bytes).</summary>
    internal FileIdentity? Identity { get; }

    /// <summary>Where the bytes start in <see cref="Path"/>.</summary>
    public long Offset { get; }

    /// <summary>The entry's size in bytes.</summary>
    public long Length { get; }

    public ReadOnlyMemory<byte> Bytes { get; }

    /// <summary>A whole loose file, sized as it is now.</summary>
    internal static EntryInput FromFile(string path)
    {
        var full = System.IO.Path.GetFullPath(path);
        var identity = FileIdentity.Of(full);
        return new EntryInput(full, 0, identity.Length, default, identity);
    }

    /// <summary>A slice of a file (for example an archive stored inside another archive).</summary>
    internal static EntryInput FromFileSlice(string path, long offset, long length)
    {
        var full = System.IO.Path.GetFullPath(path);
        var identity = FileIdentity.Of(full);
        long fileLength = identity.Length;
        if (offset < 0 || length < 0 || offset > fileLength - length)
            throw new IOException($"{full}: slice [{offset}, {offset + length}) is outside the {fileLength}-byte file");
        return new EntryInput(full, offset, length, default, identity);
    }

    /// <summary>A slice of a file whose identity was just checked to be <paramref name="identity"/> (a kept route plan's input).</summary>
    internal static EntryInput FromFileSlice(string path, long offset, long length, FileIdentity identity) =>
        offset < 0 || length < 0 || offset > identity.Length - length
            ? throw new IOException($"{path}: slice [{offset}, {offset + length}) is outside the {identity.Length}-byte file")
            : new EntryInput(path, offset, length, default, identity);

    /// <summary>Bytes held in memory.</summary>
    internal static EntryInput FromBytes(ReadOnlyMemory<byte> bytes) => new(null, 0, bytes.Length, bytes);

    /// <summary>
    /// The whole of <paramref name="file"/>, named <paramref name="name"/> in messages. Appended as the file's own segments
    /// (<see cref="VirtualFileBuilder.AppendSlice"/> flattens them), so the emulated archive that holds it reads its sources
    /// directly and keeps its own references to them: <paramref name="file"/> may be disposed once that archive is built,
    /// after which <see cref="Read"/> throws <see cref="ObjectDisposedException"/>.
    /// </summary>
    internal static EntryInput FromVirtualFile(VirtualFile file, string name)
    {
        ArgumentNullException.ThrowIfNull(file);
        return new EntryInput(null, 0, file.Length, default, null, file, name);
    }

    /// <summary>Appends the bytes to <paramref name="builder"/> at its current position.</summary>
    internal void AppendTo(VirtualFileBuilder builder)
    {
        if (File is not null)
            builder.AppendSlice(File, 0, Length);
        else if (Path is null)
            builder.AppendBytes(Bytes);
        else
            builder.AppendFile(Path, Offset, Length, Identity);
    }

    /// <summary>Appends bytes [<paramref name="offset"/>, +<paramref name="length"/>) of the entry (a mip level of a DDS file) to <paramref name="builder"/>, as a slice.</summary>
    internal void AppendTo(VirtualFileBuilder builder, long offset, long length)
    {
        if (offset < 0 || length < 0 || offset > Length - length)
            throw new ArgumentOutOfRangeException(nameof(offset), $"[{offset}, {offset + length}) is outside the {Length}-byte {this}");
        if (File is not null)
            builder.AppendSlice(File, offset, length);
        else if (Path is null)
            builder.AppendBytes(Bytes.Slice((int)offset, (int)length));
        else
            builder.AppendFile(Path, Offset + offset, length, Identity);
    }

    /// <summary>Reads up to <c>destination.Length</c> bytes at <paramref name="offset"/> within the entry; returns the count (0 at the end).</summary>
    public int Read(long offset, Span<byte> destination)
    {
        if (offset >= Length)
            return 0;
        var wanted = destination[..(int)Math.Min(destination.Length, Length - offset)];
        if (File is not null)
            return File.Read(offset, wanted);
        if (Path is null)
        {
            Bytes.Span.Slice((int)offset, wanted.Length).CopyTo(wanted);
            return wanted.Length;
        }
        using var handle = System.IO.File.OpenHandle(Path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        int total = 0;
        while (total < wanted.Length)
        {
            int n = RandomAccess.Read(handle, wanted[total..], Offset + offset + total);
            if (n == 0)
                throw new IOException($"{Path}: file is shorter than when it was added ({Length} bytes expected)");
            total += n;
        }
        return total;
    }

    public override string ToString() => Path ?? (File is not null ? $"{_name} (emulated, {Length} bytes)" : $"memory ({Length} bytes)");
}
