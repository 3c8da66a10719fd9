using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Index;

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

    /// <summary>
    /// Reads the table and opens the virtual file over it, in one pass: each file acquired from the pool (by the identity
    /// recorded) when a segment first reads it, every segment checked against its source and the archive's length.
    /// </summary>
    public static VirtualFile Open(ref LayoutReader r, long archiveLength, (string Path, FileIdentity Identity)[] files, MemorySource[] blobs,
        FileHandlePool? pool)
    {
        pool ??= FileHandlePool.Shared;
        var segments = new Segment[r.Count(RecordBytes)];
        var records = r.Take(segments.Length * RecordBytes);
        var sources = new FileSource?[files.Length];
        var acquired = new List<PooledFile>();
        try
        {
            long at = 0;
            for (int i = 0; i < segments.Length; i++)
            {
                var record = records.Slice(i * RecordBytes, RecordBytes);
                var kind = (Kind)record[0];
                int reference = BinaryPrimitives.ReadInt32LittleEndian(record[1..]);
                long length = BinaryPrimitives.ReadInt64LittleEndian(record[5..]), sourceOffset = BinaryPrimitives.ReadInt64LittleEndian(record[13..]);
                bool fits = length > 0 && length <= long.MaxValue - at && sourceOffset >= 0 && kind switch
                {
                    Kind.File => (uint)reference < (uint)files.Length && sourceOffset <= files[reference].Identity.Length - length,
                    Kind.Memory => (uint)reference < (uint)blobs.Length && sourceOffset <= blobs[reference].Bytes.Length - length,
                    Kind.Zeros => true,
                    _ => false,
                };
                if (!fits)
                    LayoutReader.Corrupt($"layout segment {i} is malformed");
                SegmentSource source = kind switch
                {
                    Kind.File => sources[reference] ??= Acquire(pool, files[reference], acquired),
                    Kind.Memory => blobs[reference],
                    _ => ZeroSource.Instance,
                };
                segments[i] = new Segment(at, length, source, sourceOffset);
                at += length;
            }
            if (at != archiveLength)
                LayoutReader.Corrupt($"layout's segments cover {at} bytes, its archive {archiveLength}");
            if (r.Left != 0)
                LayoutReader.Corrupt("layout has bytes past its segment table");
            return new VirtualFile(segments, acquired.ToArray(), archiveLength, pool.Streaming);
        }
        catch
        {
            foreach (var file in acquired)
                pool.Release(file);
            throw;
        }
    }

    private static FileSource Acquire(FileHandlePool pool, (string Path, FileIdentity Identity) file, List<PooledFile> acquired)
    {
        var pooled = pool.Acquire(file.Path, file.Identity);
        acquired.Add(pooled);
        return new FileSource(pooled);
    }
}
