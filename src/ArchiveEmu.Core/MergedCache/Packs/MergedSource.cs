using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>
/// A merged archive's bytes served from its pack: each chunk is read whole, decoded, and checked against its hash the
/// first time this source touches it (raw chunks are then read directly), an LZ4 chunk at every decode. In a
/// <paramref name="trusted"/> extent (<see cref="VerifiedExtents"/>: hash-checked in this boot while the pack had the
/// identity of this handle) raw chunks count as checked from the start: read straight from the pack, no hash, a partial
/// read one read of its bytes. Any damage — a hash mismatch, a short pack, a chunk that does not decode — is reported
/// once, and from then on every read is served by <paramref name="fallback"/> (emulation), so a reader never sees a wrong byte.
/// A streaming read of a cold pack is brought in as <paramref name="streaming"/> says (null: <see cref="PageCacheStreaming.ForMergedPacks"/>).
/// </summary>
internal sealed class MergedSource(SafeFileHandle pack, string packPath, long extentOffset, ChunkTable table,
    Func<VirtualFile> fallback, Action<string> onCorrupt, bool trusted = false, DecodedChunkStore? decoded = null,
    FileIdentity? packIdentity = null, PageCacheStreaming? streaming = null)
    : SegmentSource, IBringInAhead, IStreamingReader, IDisposable
{
    // LZ4 chunks: kept decoded in `decoded` between opens, keyed by `packIdentity` (either missing: decoded on each read),
    // and decoded ahead of a streaming reader
    private readonly Lz4Chunks _lz4 = new(pack, packPath, extentOffset, table, decoded, packIdentity);
    private readonly Lazy<VirtualFile> _fallback = new(fallback, LazyThreadSafetyMode.ExecutionAndPublication);
    private readonly int[] _verified = Verified(table.Count, trusted);
    private readonly bool _checkedAsIs = trusted && table.StoredAsIs;
    private int _rawChunksHashChecked;
    private volatile bool _corrupt;

    private const int MaxRunBytes = 4 << 20; // one read of at most this much: bounds the decode buffer of a huge read

    // Streaming reads of a pack that is not cached (see PageCacheReads): the reader brings in the policy's BringInBytes
    // itself and keeps the background thread AheadBytes in front of it, so the extent lands in large folios and the
    // device keeps reading while the reader checks hashes.
    private readonly PageCacheStreaming _streaming = streaming ?? PageCacheStreaming.ForMergedPacks;
    private readonly long _extentEnd = extentOffset + table.StoredOffsets[^1];

    private long _prefetchedTo; // pack offset the background thread was asked to bring in up to, in this cold pass
    private int _coldPass;
    private long _streamedTo; // pack offset the last streaming read of a cold pass reached

    [ThreadStatic] private static DecodedChunk? t_last;

    private sealed record DecodedChunk(MergedSource Owner, int Index, byte[] Bytes);

    internal override void ReadExactly(long sourceOffset, Span<byte> destination)
    {
        if (!_corrupt)
        {
            try
            {
                ReadChunks(sourceOffset, destination);
                return;
            }
            catch (InvalidDataException e)
            {
                MarkCorrupt(e.Message);
            }
        }
        _fallback.Value.ReadExactly(sourceOffset, destination);
    }

    /// <summary>Raw chunks this source hash-checked: none in a trusted extent (LZ4 chunks are checked by <see cref="Lz4Chunks"/>).</summary>
    internal int RawChunksHashChecked => Volatile.Read(ref _rawChunksHashChecked);

    // A trusted extent starts with every chunk taken as checked; only raw chunks look at it (an LZ4 chunk is hash-checked
    // when it is decoded, which costs a few per cent of the decode: docs/DESIGN.md).
    private static int[] Verified(int count, bool trusted)
    {
        var verified = new int[count];
        if (trusted)
            Array.Fill(verified, 1);
        return verified;
    }

    private void ReadChunks(long offset, Span<byte> destination)
    {
        if (_checkedAsIs && !PageCacheStreaming.IsStreaming(destination.Length))
        {
            // Trusted and stored as is: the bytes lie at the same offset in the pack, checked, so a small read is one pread
            // and touches no chunk table (whose arrays each pread's kernel work pushes out of the CPU's caches: the table
            // lookups cost ~100-150 ns of misses per 4 KiB read, `benchmarks mergedreads`)
            ReadPack(extentOffset + offset, destination);
            return;
        }
        while (!destination.IsEmpty)
        {
            int index = (int)(offset / table.ChunkSize);
            int within = (int)(offset - (long)index * table.ChunkSize);
            int count = Math.Min(destination.Length, table.RawLength(index) - within);
            if (within == 0 && count == table.RawLength(index))
                count = ReadWholeChunks(index, destination);
            else if (table.Codecs[index] == ChunkCodec.Raw && Volatile.Read(ref _verified[index]) != 0)
                ReadPack(extentOffset + table.StoredOffsets[index] + within, destination[..count]);
            else
                Decode(index).AsSpan(within, count).CopyTo(destination);
            destination = destination[count..];
            offset += count;
        }
    }

    /// <summary>
    /// Chunks <paramref name="first"/>… that <paramref name="destination"/> covers whole: when all are raw, their
    /// stored bytes in one read straight into the destination, hash-checked there — no per-chunk allocation or copy,
    /// so a whole-archive read costs about what reading the plain file does; otherwise through <see cref="Lz4Chunks"/>
    /// (kept, or decoded ahead on another core). Returns the bytes delivered.
    /// </summary>
    private int ReadWholeChunks(int first, Span<byte> destination)
    {
        int last = first;
        int raw = table.RawLength(first);
        bool allRaw = table.Codecs[first] == ChunkCodec.Raw;
        while (last + 1 < table.Count && raw + table.RawLength(last + 1) <= Math.Min(destination.Length, MaxRunBytes))
        {
            last++;
            raw += table.RawLength(last);
            allRaw &= table.Codecs[last] == ChunkCodec.Raw;
        }
        var target = destination[..raw];
        long storedStart = table.StoredOffsets[first];
        if (_streaming.BringsInRead(raw, _extentEnd - extentOffset))
            BeforeStreamingRead(extentOffset + storedStart, (int)(table.StoredOffsets[last + 1] - storedStart));
        if (allRaw)
            ReadPack(extentOffset + storedStart, target);
        else
            _lz4.ReadRun(first, last, target);

        for (int c = first, at = 0; c <= last; at += table.RawLength(c), c++)
        {
            bool rawChecked = table.Codecs[c] == ChunkCodec.Raw && Volatile.Read(ref _verified[c]) != 0;
            if (rawChecked || table.Codecs[c] == ChunkCodec.Lz4) // LZ4 chunks arrive hash-checked by _lz4
                continue;
            Interlocked.Increment(ref _rawChunksHashChecked);
            if (ChunkTable.Hash(target.Slice(at, table.RawLength(c))) != table.Hashes[c])
                throw new InvalidDataException($"{packPath}: chunk {c} fails its hash check"); // the caller re-serves the whole read by emulation
            Volatile.Write(ref _verified[c], 1);
        }
        return raw;
    }

    private void BeforeStreamingRead(long packOffset, int length)
    {
        bool missed = !PageCacheReads.IsCached(pack, packOffset, length);
        long brought = packOffset;
        if (missed)
        {
            brought += Math.Max(length, Math.Min(_streaming.BringInBytes, _extentEnd - packOffset));
            PageCacheReads.BringIn(pack, packOffset, brought - packOffset, _extentEnd);
        }
        bool fromTheStart = packOffset == extentOffset;
        if ((missed || fromTheStart) && (missed ? 1 : 0) != _coldPass)
            Volatile.Write(ref _coldPass, missed ? 1 : 0);
        if (Volatile.Read(ref _coldPass) == 0)
            return;
        Volatile.Write(ref _streamedTo, packOffset + length);
        long from = Math.Max(fromTheStart ? brought : Volatile.Read(ref _prefetchedTo), brought);
        if (from >= _extentEnd || from > packOffset + length + _streaming.AheadBytes / 2)
            return; // far enough ahead already
        long until = Math.Min(_extentEnd, from + _streaming.AheadBytes);
        Volatile.Write(ref _prefetchedTo, until);
        BackgroundPrefetch.Enqueue(this, from, until - from, 0, this, until);
    }

    long IStreamingReader.StreamedTo => Volatile.Read(ref _streamedTo);

    void IBringInAhead.BringInAhead(long offset, long length, long alsoNeeded)
    {
        if (!PageCacheReads.IsCached(pack, offset, length))
            PageCacheReads.BringIn(pack, offset, length, _extentEnd);
    }

    private byte[] Decode(int index)
    {
        if (t_last is { } last && last.Owner == this && last.Index == index)
            return last.Bytes;
        byte[] raw;
        if (table.Codecs[index] == ChunkCodec.Lz4)
            raw = _lz4.Chunk(index); // hash-checked there
        else
        {
            raw = new byte[table.StoredLengths[index]];
            ReadPack(extentOffset + table.StoredOffsets[index], raw);
            Interlocked.Increment(ref _rawChunksHashChecked);
            if (ChunkTable.Hash(raw) != table.Hashes[index])
                throw new InvalidDataException($"{packPath}: chunk {index} fails its hash check");
        }
        Volatile.Write(ref _verified[index], 1);
        t_last = new DecodedChunk(this, index, raw);
        return raw;
    }

    private void ReadPack(long offset, Span<byte> destination) => PackFiles.ReadExactly(pack, packPath, offset, destination);

    private void MarkCorrupt(string reason)
    {
        if (_corrupt)
            return;
        _corrupt = true;
        onCorrupt(reason);
    }

    public override string Describe() => $"merged cache ({packPath})";

    public void Dispose()
    {
        _lz4.Dispose();
        pack.Dispose();
        if (_fallback.IsValueCreated)
            _fallback.Value.Dispose();
    }
}
