using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// An emulated archive's layout — entry list, rebuilt header bytes and segment table — saved so that a
/// later start rebuilds the virtual file without parsing the original again. Binary, little-endian,
/// version byte first. Files are re-opened with the identity they had, so a changed file is an I/O error.
/// </summary>
internal static class ArchiveLayout
{
    private const byte Version = 3; // 2: the original may be a slice of a file (offset and length stored); 3: identities hold ctime and inode
    private enum Kind : byte { File = 0, Memory = 1, Zeros = 2 }

    public static byte[] Serialize(EmulatedArchive archive)
    {
        using var stream = new MemoryStream();
        using var w = new BinaryWriter(stream);
        w.Write(Version);
        w.Write(archive.Original.Format.Name);
        w.Write(archive.Original.Path);
        WriteIdentity(w, archive.Original.Identity);
        w.Write(archive.Original.Source.Offset);
        w.Write(archive.Original.Source.Length);
        w.Write(archive.Entries.Count);
        foreach (var e in archive.Entries)
        {
            w.Write(e.Index);
            w.Write(e.Name is not null);
            w.Write(e.Name ?? "");
            w.Write(e.Size);
            w.Write((byte)e.State);
            w.Write(e.Origin);
        }

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
            w.Write(f.Path);
            WriteIdentity(w, f.Identity);
        }
        w.Write(blobs.Count);
        foreach (var m in blobs.Keys)
        {
            w.Write(m.Bytes.Length);
            w.Write(m.Bytes.Span);
        }
        w.Write(archive.File.Length);
        w.Write(archive.File.Segments.Length);
        foreach (var s in archive.File.Segments)
        {
            var (kind, reference) = s.Source switch
            {
                FileSource f => (Kind.File, files[f]),
                MemorySource m => (Kind.Memory, blobs[m]),
                ZeroSource => (Kind.Zeros, 0),
                _ => throw new NotSupportedException($"a layout cannot hold a {s.Source.GetType().Name} segment"),
            };
            w.Write((byte)kind);
            w.Write(s.VirtualOffset);
            w.Write(s.Length);
            w.Write(reference);
            w.Write(s.SourceOffset);
        }
        w.Flush();
        return stream.ToArray();
    }

    /// <summary>Rebuilds the archive from bytes that already passed their hash check; structure is still validated.</summary>
    public static EmulatedArchive Deserialize(byte[] bytes, FileHandlePool? pool)
    {
        using var r = new BinaryReader(new MemoryStream(bytes, writable: false));
        if (r.ReadByte() != Version)
            throw new InvalidDataException("layout has an unknown version");
        var format = ArchiveFormats.ByName(r.ReadString()) ?? throw new InvalidDataException("layout names an unknown format");
        string originalPath = r.ReadString();
        var originalIdentity = ReadIdentity(r);
        long originalOffset = r.ReadInt64(), originalLength = r.ReadInt64();
        if (originalOffset < 0 || originalLength < 0 || originalOffset > originalIdentity.Length - originalLength)
            throw new InvalidDataException("layout's original slice is outside its file");

        var entries = new EmulatedEntry[Count(r, bytes, 10)];
        var origins = new Dictionary<string, string>(StringComparer.Ordinal); // a handful of mods for 65,536 entries: one string each
        for (int i = 0; i < entries.Length; i++)
        {
            int index = r.ReadInt32();
            bool hasName = r.ReadBoolean();
            string name = r.ReadString();
            long size = r.ReadInt64();
            var state = (EntryState)r.ReadByte();
            string origin = r.ReadString();
            if (!origins.TryAdd(origin, origin))
                origin = origins[origin];
            entries[i] = new EmulatedEntry(index, hasName ? name : null, size, state, origin);
        }
        var files = new (string Path, FileIdentity Identity)[Count(r, bytes, 33)];
        for (int i = 0; i < files.Length; i++)
            files[i] = (r.ReadString(), ReadIdentity(r));
        var blobs = new byte[Count(r, bytes, 4)][];
        for (int i = 0; i < blobs.Length; i++)
            blobs[i] = r.ReadBytes(Count(r, bytes, 1));

        long length = r.ReadInt64();
        int segments = Count(r, bytes, 29);
        var builder = new VirtualFileBuilder(pool, segments);
        for (int i = 0; i < segments; i++)
        {
            var kind = (Kind)r.ReadByte();
            long at = r.ReadInt64(), size = r.ReadInt64();
            int reference = r.ReadInt32();
            long sourceOffset = r.ReadInt64();
            switch (kind)
            {
                case Kind.File when (uint)reference < (uint)files.Length && sourceOffset >= 0 && size >= 0
                                    && sourceOffset <= files[reference].Identity.Length - size:
                    builder.AddFile(at, files[reference].Path, sourceOffset, size, files[reference].Identity);
                    break;
                case Kind.Memory when (uint)reference < (uint)blobs.Length && sourceOffset >= 0 && size >= 0 && sourceOffset + size <= blobs[reference].Length:
                    builder.AddBytes(at, new ReadOnlyMemory<byte>(blobs[reference], (int)sourceOffset, (int)size));
                    break;
                case Kind.Zeros:
                    builder.AddZeros(at, size);
                    break;
                default:
                    throw new InvalidDataException($"layout segment {i} is malformed");
            }
        }
        var original = new CachedArchiveIndex(new ArchiveSource(originalPath, originalOffset, originalLength, originalIdentity), format);
        return new EmulatedArchive(original, builder.Build(length), entries);
    }

    private static void WriteIdentity(BinaryWriter w, FileIdentity identity)
    {
        w.Write(identity.Length);
        w.Write(identity.LastWriteUtc.Ticks);
        w.Write(identity.ChangeUtc.Ticks);
        w.Write(identity.Inode);
    }

    private static FileIdentity ReadIdentity(BinaryReader r) => // a time out of range is an ArgumentException: a damaged layout
        new(r.ReadInt64(), new DateTime(r.ReadInt64(), DateTimeKind.Utc), new DateTime(r.ReadInt64(), DateTimeKind.Utc), r.ReadUInt64());

    // A count may not promise more records than the bytes left could hold.
    private static int Count(BinaryReader r, byte[] bytes, int minRecordSize)
    {
        int count = r.ReadInt32();
        long left = bytes.Length - r.BaseStream.Position;
        if (count < 0 || (long)count * minRecordSize > left)
            throw new InvalidDataException("layout count exceeds its data");
        return count;
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
