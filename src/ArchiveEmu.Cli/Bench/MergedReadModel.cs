using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Packs;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// The requests a merged entry's reads send to its pack, following MergedSource: chunks a read covers whole
/// come in one request for their stored bytes; otherwise a chunk's first touch reads the whole stored chunk
/// (to check its hash, and decode it if LZ4), later reads of a checked raw chunk read only the bytes asked,
/// and the last decoded chunk is reused. In a <paramref name="trusted"/> extent (<see cref="MergedFileCache.IsVerified"/>)
/// raw chunks count as checked from the start.
/// </summary>
internal sealed class MergedReadModel(string packPath, long extentOffset, ChunkTable table, bool trusted)
{
    private const int MaxRunBytes = 4 << 20; // as MergedSource
    private readonly bool[] _verified = Enumerable.Repeat(trusted, table.Count).ToArray();
    private int _lastDecoded = -1;

    public long StoredBytes => table.StoredOffsets[^1];

    public void Trace(long offset, int length, ReadTrace trace)
    {
        while (length > 0)
        {
            int index = (int)(offset / table.ChunkSize);
            int within = (int)(offset - (long)index * table.ChunkSize);
            int count = Math.Min(length, table.RawLength(index) - within);
            if (within == 0 && count == table.RawLength(index))
                count = TraceWholeChunks(index, length, trace);
            else if (table.Codecs[index] == ChunkCodec.Raw && _verified[index])
                trace.Add(packPath, extentOffset + table.StoredOffsets[index] + within, count);
            else if (_lastDecoded != index)
            {
                trace.Add(packPath, extentOffset + table.StoredOffsets[index], table.StoredLengths[index]);
                _verified[index] = true;
                _lastDecoded = index;
            }
            offset += count;
            length -= count;
        }
    }

    // Chunks the read covers whole: their stored bytes in one request of at most MaxRunBytes of output.
    private int TraceWholeChunks(int first, int length, ReadTrace trace)
    {
        int last = first, raw = table.RawLength(first);
        while (last + 1 < table.Count && raw + table.RawLength(last + 1) <= Math.Min(length, MaxRunBytes))
            raw += table.RawLength(++last);
        trace.Add(packPath, extentOffset + table.StoredOffsets[first], (int)(table.StoredOffsets[last + 1] - table.StoredOffsets[first]));
        for (int c = first; c <= last; c++)
            _verified[c] = true;
        return raw;
    }
}
