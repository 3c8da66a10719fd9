using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// A layout's segment table: fixed-size records, back to back from offset 0, turned straight into the virtual file's
/// table. They came from a built virtual file (sorted, no gaps, adjacent slices merged), so the builder's sort and merge
/// pass is not repeated; every record is still checked against its source and the archive's length.
/// </summary>
internal static class LayoutSegments
{
    private enum Kind : byte { File = 0, Memory = 1, Zeros = 2 }
    private const int RecordBytes = 1 + 4 + 8 + 8; // kind, file or blob number, length, offset in that source

    public static void Write(BinaryWriter w, ReadOnlySpan<Segment> segments, Dictionary<FileSource, int> files, Dictionary<MemorySource, int> blobs)
    {
        w.Write(segments.Length);
        foreach (var s in segments)
        {
            var (kind, reference) = s.Source switch
            {
                FileSource f => (Kind.File, files[f]),
                MemorySource m => (Kind.Memory, blobs[m]),
                ZeroSource => (Kind.Zeros, 0),
                _ => throw new NotSupportedException($"a layout cannot hold a {s.Source.GetType().Name} segment"),
            };
            w.Write((byte)kind);
            w.Write(reference);
            w.Write(s.Length);
            w.Write(s.SourceOffset);
        }
    }

    /// <summary>Reads the table and opens the virtual file over it: each file acquired once from the pool, by the identity recorded.</summary>
    public static VirtualFile Open(ref LayoutReader r, long archiveLength, (string Path, FileIdentity Identity)[] files, MemorySource[] blobs,
        FileHandlePool? pool)
    {
        var segments = new Segment[r.Count(RecordBytes)];
        var kinds = new Kind[segments.Length];
        var references = new int[segments.Length];
        long at = 0;
        for (int i = 0; i < segments.Length; i++)
        {
            var kind = (Kind)r.ReadByte();
            int reference = r.ReadInt32();
            long length = r.ReadInt64(), sourceOffset = r.ReadInt64();
            bool fits = length > 0 && length <= long.MaxValue - at && sourceOffset >= 0 && kind switch
            {
                Kind.File => (uint)reference < (uint)files.Length && sourceOffset <= files[reference].Identity.Length - length,
                Kind.Memory => (uint)reference < (uint)blobs.Length && sourceOffset <= blobs[reference].Bytes.Length - length,
                Kind.Zeros => true,
                _ => false,
            };
            if (!fits)
                LayoutReader.Corrupt($"layout segment {i} is malformed");
            (kinds[i], references[i]) = (kind, reference);
            segments[i] = new Segment(at, length, kind == Kind.Memory ? blobs[reference] : ZeroSource.Instance, sourceOffset);
            at += length;
        }
        if (at != archiveLength)
            LayoutReader.Corrupt($"layout's segments cover {at} bytes, its archive {archiveLength}");
        if (r.Left != 0)
            LayoutReader.Corrupt("layout has bytes past its segment table");

        pool ??= FileHandlePool.Shared;
        var acquired = new PooledFile[files.Length];
        int count = 0;
        try
        {
            var sources = new FileSource[files.Length];
            for (; count < files.Length; count++)
            {
                acquired[count] = pool.Acquire(files[count].Path, files[count].Identity);
                sources[count] = new FileSource(acquired[count]);
            }
            for (int i = 0; i < segments.Length; i++)
            {
                if (kinds[i] == Kind.File)
                    segments[i] = segments[i] with { Source = sources[references[i]] };
            }
            return new VirtualFile(segments, acquired, archiveLength);
        }
        catch
        {
            for (int i = 0; i < count; i++)
                pool.Release(acquired[i]);
            throw;
        }
    }
}
