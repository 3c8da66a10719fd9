using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>
/// An emulated archive's layout — entry list, rebuilt header bytes and segment table — saved so that a later start
/// rebuilds the virtual file without parsing the original again (docs/FORMATS.md, "The merged file cache on disk"). Flat and little-endian,
/// version byte first: entries as columns read in place, segments as fixed-size records turned straight into the
/// virtual file's table (no builder, no sort), header bytes served from the blob itself. Files are re-opened with the
/// identity they had, so a changed file is an I/O error.
/// </summary>
internal static class ArchiveLayout
{
    // 4: flat columns (issue 20: version 3's per-entry records and builder pass restored AFS no faster than a parse);
    // 3: identities hold ctime and inode; 2: the original may be a slice of a file
    public const byte Version = 4;
    private const int IdentityBytes = 32;

    /// <param name="folder">How the game folder is read when not by its own path: files are named by its shown path.</param>
    public static byte[] Serialize(EmulatedArchive archive, ShownFolder? folder = null)
    {
        using var stream = new MemoryStream();
        using var w = new BinaryWriter(stream);
        w.Write(Version);
        WriteString(w, archive.Original.Format.Name);
        WriteString(w, folder?.Show(archive.Original.Path) ?? archive.Original.Path);
        WriteIdentity(w, archive.Original.Identity);
        w.Write(archive.Original.Source.Offset);
        w.Write(archive.Original.Source.Length);
        LayoutEntries.Write(w, archive.Entries);

        var files = new Dictionary<FileSource, int>();
        var blobs = new Dictionary<MemorySource, int>();
        foreach (var s in archive.File.Segments)
        {
            if (s.Source is FileSource f)
                files.TryAdd(f, files.Count);
            else if (s.Source is MemorySource m)
                blobs.TryAdd(m, blobs.Count);
        }
        w.Write(files.Count);
        foreach (var f in files.Keys)
        {
            WriteString(w, folder?.Show(f.Path) ?? f.Path); // the path before the identity: CacheParserRegressionTests finds the original's length so
            WriteIdentity(w, f.Identity);
        }
        w.Write(blobs.Count);
        foreach (var m in blobs.Keys)
        {
            w.Write(m.Bytes.Length);
            w.Write(m.Bytes.Span);
        }
        w.Write(archive.File.Length);
        LayoutSegments.Write(w, archive.File.Segments, files, blobs);
        w.Flush();
        return stream.ToArray();
    }

    /// <summary>
    /// Rebuilds the archive from bytes that already passed their hash check; structure is still validated, and a layout of
    /// another version is an <see cref="InvalidDataException"/> (the caller drops it and parses).
    /// </summary>
    /// <param name="folder">How this process reads the game folder when not by its own path: each file is opened by its read path.</param>
    public static EmulatedArchive Deserialize(byte[] bytes, FileHandlePool? pool, ShownFolder? folder = null)
    {
        var r = new LayoutReader(bytes);
        if (bytes.Length == 0 || bytes[0] != Version)
            LayoutReader.Corrupt($"layout version {(bytes.Length == 0 ? "none" : bytes[0])}, this build reads {Version}");
        r.ReadByte();
        var format = ArchiveFormats.ByName(r.ReadString()) ?? throw new InvalidDataException("layout names an unknown format");
        string originalPath = ReadPath(r.ReadString(), folder);
        var originalIdentity = r.ReadIdentity();
        long originalOffset = r.ReadInt64(), originalLength = r.ReadInt64();
        if (originalOffset < 0 || originalLength < 0 || originalOffset > originalIdentity.Length - originalLength)
            LayoutReader.Corrupt("layout's original slice is outside its file");

        var entries = new LayoutEntries(bytes, ref r);
        var files = new (string Path, FileIdentity Identity)[r.Count(4 + IdentityBytes)];
        for (int i = 0; i < files.Length; i++)
            files[i] = (ReadPath(r.ReadString(), folder), r.ReadIdentity());
        var blobs = new MemorySource[r.Count(4)];
        for (int i = 0; i < blobs.Length; i++)
        {
            int length = r.Count(1);
            blobs[i] = new MemorySource(new ReadOnlyMemory<byte>(bytes, r.Column(length, 1), length)); // served from the blob, not copied
        }
        long archiveLength = r.ReadInt64();
        var file = LayoutSegments.Open(ref r, archiveLength, files, blobs, pool);
        var original = new CachedArchiveIndex(new ArchiveSource(originalPath, originalOffset, originalLength, originalIdentity), format);
        return new EmulatedArchive(original, file, entries);
    }

    private static string ReadPath(string path, ShownFolder? folder)
    {
        // Not a path any file has (found by fuzzing: the file pool's GetFullPath threw an ArgumentException).
        if (path.Length == 0 || path.Contains('\0'))
            LayoutReader.Corrupt("layout names an empty path or one holding a NUL");
        return folder?.ReadPath(path) ?? path;
    }

    internal static void WriteString(BinaryWriter w, string value)
    {
        w.Write(Encoding.UTF8.GetByteCount(value));
        w.Write(Encoding.UTF8.GetBytes(value));
    }

    private static void WriteIdentity(BinaryWriter w, FileIdentity identity)
    {
        w.Write(identity.Length);
        w.Write(identity.LastWriteUtc.Ticks);
        w.Write(identity.ChangeUtc.Ticks);
        w.Write(identity.Inode);
    }
}

/// <summary>
/// The original of an archive restored from the cache: its source, identity and format, without its
/// parsed entries (the point of the layout cache is not to parse it). It cannot be built from again.
/// </summary>
internal sealed class CachedArchiveIndex(ArchiveSource source, IArchiveFormat format)
    : ArchiveIndex(source, Array.Empty<ArchiveEntry>())
{
    public override IArchiveFormat Format { get; } = format;
}
