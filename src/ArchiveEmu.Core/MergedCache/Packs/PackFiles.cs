using System.Buffers.Binary;
using System.Globalization;
using System.IO.Hashing;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache.Index;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>
/// The cache's pack files. Packs are append-only: bytes once written at an offset are never rewritten or
/// truncated (a reader holding an older index may still read them); space is reclaimed only by
/// <c>gc</c>, which copies live blobs into a new pack and deletes the old files.
/// </summary>
internal sealed class PackFiles(string folder)
{
    public const long PackLimit = 256L << 20; // start a new pack past this size

    public string Folder { get; } = Path.Combine(folder, "packs");

    /// <summary>
    /// The path of a pack named in the index. A name that is not a plain *.pack file name (empty, a folder, "..", a path)
    /// is damage, an <see cref="InvalidDataException"/>: nothing outside packs/ is read, and no folder is opened as a pack.
    /// </summary>
    public string PathOf(string pack)
    {
        if (pack.Length <= ".pack".Length || !pack.EndsWith(".pack", StringComparison.Ordinal) || pack.StartsWith('.')
            || pack.AsSpan().IndexOfAny('/', '\\') >= 0 || pack.Contains('\0'))
            throw new InvalidDataException($"{Folder}: '{pack}' is not a pack name");
        return Path.Combine(Folder, pack);
    }

    public IEnumerable<string> Names() =>
        Directory.Exists(Folder) ? Directory.EnumerateFiles(Folder, "*.pack").Select(Path.GetFileName).OfType<string>().Order(StringComparer.Ordinal) : [];

    /// <summary>Opens the pack to append to (the newest, unless full) positioned at its end. Caller holds the writer lock.</summary>
    public (string Name, FileStream Stream) OpenForAppend()
    {
        PrivateFiles.CreateFolder(Folder);
        var newest = Names().LastOrDefault();
        if (newest is not null && new FileInfo(PathOf(newest)).Length < PackLimit)
        {
            var existing = new FileStream(PathOf(newest), FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete);
            if (existing.Length >= CacheFormat.PackHeaderSize && HasHeader(existing))
            {
                existing.Seek(0, SeekOrigin.End); // after any bytes a killed writer left: they stay dead, never overwritten
                return (newest, existing);
            }
            existing.Dispose();
        }
        return CreateNext(newest);
    }

    public (string Name, FileStream Stream) CreateNext(string? newest = null)
    {
        PrivateFiles.CreateFolder(Folder);
        newest ??= Names().LastOrDefault();
        int number = newest is not null && int.TryParse(Path.GetFileNameWithoutExtension(newest), NumberStyles.None, CultureInfo.InvariantCulture, out int n) ? n + 1 : 1;
        string name = $"{number:D8}.pack";
        var stream = PrivateFiles.Open(PathOf(name), FileMode.CreateNew, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete);
        try
        {
            Span<byte> header = stackalloc byte[CacheFormat.PackHeaderSize];
            header.Clear();
            CacheFormat.PackMagic.CopyTo(header);
            BinaryPrimitives.WriteInt32LittleEndian(header[8..], CacheFormat.Version);
            stream.Write(header);
            stream.Flush(); // a full disk says so here, not at the first blob: the empty pack is deleted, not left behind
            DirectorySync.Flush(Folder); // the new pack's name durable before an index can point into it
            return (name, stream);
        }
        catch (IOException)
        {
            try
            {
                stream.Dispose(); // flushes the header again, and fails again on a full disk; the handle is closed all the same
            }
            catch (IOException)
            {
            }
            File.Delete(PathOf(name)); // no index names it yet
            throw;
        }
    }

    private static bool HasHeader(FileStream stream)
    {
        Span<byte> header = stackalloc byte[CacheFormat.PackHeaderSize];
        stream.Position = 0;
        stream.ReadExactly(header);
        return header[..8].SequenceEqual(CacheFormat.PackMagic) && BinaryPrimitives.ReadInt32LittleEndian(header[8..]) == CacheFormat.Version;
    }

    /// <summary>Appends <paramref name="bytes"/> and describes where they went.</summary>
    public static CacheExtent Append(string pack, FileStream stream, ReadOnlySpan<byte> bytes)
    {
        long offset = stream.Position;
        stream.Write(bytes);
        return new CacheExtent(pack, offset, bytes.Length, Convert.ToHexStringLower(XxHash3.Hash(bytes)));
    }

    /// <summary>Reads a blob and checks its hash; any problem is an <see cref="InvalidDataException"/> naming the pack.</summary>
    public byte[] ReadBlob(CacheExtent extent, int maxLength = 1 << 30)
    {
        var path = PathOf(extent.Pack);
        if (extent.Length < 0 || extent.Length > maxLength || extent.Offset < CacheFormat.PackHeaderSize)
            throw new InvalidDataException($"{path}: blob at {extent.Offset} has an impossible size {extent.Length}");
        byte[] bytes;
        try
        {
            using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            if (extent.Offset + extent.Length > RandomAccess.GetLength(handle))
                throw new InvalidDataException($"{path}: pack is shorter than its index says (blob at {extent.Offset}, {extent.Length} bytes)");
            bytes = new byte[extent.Length];
            ReadExactly(handle, path, extent.Offset, bytes);
        }
        catch (FileNotFoundException)
        {
            throw new InvalidDataException($"{path}: pack file is missing");
        }
        if (Convert.ToHexStringLower(XxHash3.Hash(bytes)) != extent.Hash)
            throw new InvalidDataException($"{path}: blob at {extent.Offset} fails its hash check");
        return bytes;
    }

    /// <summary>Fills <paramref name="destination"/> from <paramref name="pack"/> at <paramref name="offset"/>; a pack that ends first is damage.</summary>
    public static void ReadExactly(SafeFileHandle pack, string packPath, long offset, Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            int n = RandomAccess.Read(pack, destination, offset);
            if (n == 0)
                throw new InvalidDataException($"{packPath}: pack is shorter than its index says (truncated at {offset})");
            destination = destination[n..];
            offset += n;
        }
    }
}
