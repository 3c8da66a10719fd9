using System.Buffers;
using ArchiveEmu.Core.VirtualFiles;
using K4os.Compression.LZ4;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>
/// The LZ4 chunks of one open merged archive, decoded and hash-checked: taken from the <see cref="DecodedChunkStore"/>
/// when kept there, else decoded by whoever comes first — the reader, or <see cref="Lz4DecodeAhead"/> running ahead of a
/// reader that streams through whole chunks. Only chunks that pass their hash check are kept; a damaged one throws
/// <see cref="InvalidDataException"/> on the reader's thread, so the caller serves the read by emulation.
/// </summary>
internal sealed class Lz4Chunks(SafeFileHandle pack, string packPath, long extentOffset, ChunkTable table, DecodedChunkStore? store,
    FileIdentity? packIdentity)
    : IDisposable
{
    // How far ahead of a streaming reader chunks are decoded: a few of the bench's 1 MiB reads, so the other core stays
    // busy across them, without decoding much that a reader who stops or jumps never reads.
    private const long AheadBytes = 4L << 20;
    private readonly int _aheadChunks = (int)Math.Max(Lz4DecodeAhead.PieceChunks, AheadBytes / table.ChunkSize);
    // Without the pack's identity (the open's one fstat) its chunks cannot be told from a rebuilt pack's: decoded, never kept.
    private readonly FileIdentity? _packIdentity = store is null ? null : packIdentity;
    private int _pass; // changes when the reader jumps: the work queued for the old position is dropped
    private int _readerAt; // the chunk after the last whole-chunk run read
    private int _queuedTo; // decoding was asked for up to here, in this pass
    private volatile bool _disposed;

    private bool Keeping => _packIdentity is not null;

    /// <summary>
    /// Fills <paramref name="target"/> with chunks <paramref name="first"/>…<paramref name="last"/>: LZ4 ones decoded and
    /// hash-checked, raw ones as stored (the caller checks those), and asks for the chunks after them to be decoded ahead.
    /// Kept chunks are copied out; the others are read from the pack in one read and decoded in place by the reader, who
    /// never waits for a background thread (on a loaded machine it may not run for milliseconds), and kept by one: new
    /// memory costs a page fault per 4 KiB, which on the reader's thread measured as much as the decoding.
    /// </summary>
    public void ReadRun(int first, int last, Span<byte> target)
    {
        if (Keeping)
            FollowReader(first, last + 1);
        int count = last - first + 1;
        Span<bool> served = count <= 512 ? stackalloc bool[count] : new bool[count];
        int missFirst = -1, missLast = -1;
        for (int c = first, at = 0; c <= last; at += table.RawLength(c), c++)
        {
            if (table.Codecs[c] == ChunkCodec.Lz4 && Keeping && store!.TryGet(KeyOf(c), out var kept))
            {
                kept.CopyTo(target.Slice(at, kept.Length));
                served[c - first] = true;
                continue;
            }
            missFirst = missFirst < 0 ? c : missFirst;
            missLast = c;
        }
        if (missFirst >= 0)
            ReadAndDecode(missFirst, missLast, target[(int)((long)(missFirst - first) * table.ChunkSize)..], served[(missFirst - first)..]);
    }

    private void ReadAndDecode(int first, int last, Span<byte> target, ReadOnlySpan<bool> served)
    {
        long storedFrom = table.StoredOffsets[first];
        int storedLength = checked((int)(table.StoredOffsets[last + 1] - storedFrom));
        var stored = ArrayPool<byte>.Shared.Rent(storedLength);
        try
        {
            ReadPack(extentOffset + storedFrom, stored.AsSpan(0, storedLength));
            for (int c = first, at = 0; c <= last; at += table.RawLength(c), c++)
            {
                if (served[c - first])
                    continue;
                var chunk = stored.AsSpan((int)(table.StoredOffsets[c] - storedFrom), table.StoredLengths[c]);
                var output = target.Slice(at, table.RawLength(c));
                if (table.Codecs[c] == ChunkCodec.Raw)
                {
                    chunk.CopyTo(output);
                    continue;
                }
                if (LZ4Codec.Decode(chunk, output) != output.Length)
                    throw new InvalidDataException($"{packPath}: chunk {c} does not decode");
                if (ChunkTable.Hash(output) != table.Hashes[c])
                    throw new InvalidDataException($"{packPath}: chunk {c} fails its hash check");
            }
            if (Keeping)
            {
                // a copy for a background thread to keep: a memory copy here instead of a second decode there
                int length = (int)((long)(last - first) * table.ChunkSize + table.RawLength(last));
                var decoded = ArrayPool<byte>.Shared.Rent(length);
                target[..length].CopyTo(decoded);
                Lz4DecodeAhead.EnqueueKeep(this, first, last, decoded);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    /// <summary>Chunk <paramref name="index"/> (LZ4) decoded and hash-checked; the array is shared and must not be written.</summary>
    public byte[] Chunk(int index)
    {
        if (Keeping && store!.TryGet(KeyOf(index), out var kept))
            return kept;
        var raw = Keeping ? KeptArray(table.RawLength(index)) : new byte[table.RawLength(index)];
        if (!TryDecode(index, raw))
            throw new InvalidDataException($"{packPath}: chunk {index} does not decode");
        if (ChunkTable.Hash(raw) != table.Hashes[index])
            throw new InvalidDataException($"{packPath}: chunk {index} fails its hash check");
        if (Keeping)
            store!.Add(KeyOf(index), raw);
        return raw;
    }

    private void FollowReader(int first, int next)
    {
        if (first != Volatile.Read(ref _readerAt))
        {
            Interlocked.Increment(ref _pass);
            Volatile.Write(ref _queuedTo, next);
        }
        Volatile.Write(ref _readerAt, next);
        int until = Math.Min(table.Count, next + _aheadChunks);
        int from = Math.Max(Volatile.Read(ref _queuedTo), next);
        if (from >= until || (until - from < _aheadChunks / 2 && until < table.Count))
            return; // far enough ahead already: ask in larger pieces than one read
        Volatile.Write(ref _queuedTo, until);
        Lz4DecodeAhead.Enqueue(this, from, until, Volatile.Read(ref _pass));
    }

    /// <summary>
    /// Decodes chunks [from, to) into the store, on a background thread, their stored bytes in one read; unless the file
    /// was closed, or the reader has passed them or jumped. A chunk the reader reaches first it decodes itself: both
    /// may then decode it, and the store keeps the first.
    /// </summary>
    internal void DecodeAhead(int from, int to, int pass)
    {
        from = Math.Max(from, Volatile.Read(ref _readerAt));
        if (from >= to || _disposed || Volatile.Read(ref _pass) != pass)
            return;
        long storedFrom = table.StoredOffsets[from];
        int storedLength = checked((int)(table.StoredOffsets[to] - storedFrom));
        var stored = ArrayPool<byte>.Shared.Rent(storedLength);
        try
        {
            ReadPack(extentOffset + storedFrom, stored.AsSpan(0, storedLength));
            for (int c = from; c < to; c++)
            {
                if (_disposed || Volatile.Read(ref _pass) != pass)
                    return;
                if (c < Volatile.Read(ref _readerAt) || table.Codecs[c] != ChunkCodec.Lz4)
                    continue;
                var key = KeyOf(c);
                if (store!.Contains(key))
                    continue;
                var raw = KeptArray(table.RawLength(c));
                var chunk = stored.AsSpan((int)(table.StoredOffsets[c] - storedFrom), table.StoredLengths[c]);
                // a damaged chunk is left for the reader, who decodes it, finds the damage and falls back to emulation
                if (LZ4Codec.Decode(chunk, raw) == raw.Length && ChunkTable.Hash(raw) == table.Hashes[c])
                    store.Add(key, raw);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    /// <summary>Keeps the LZ4 chunks of <paramref name="decoded"/>, chunks first…last that the reader decoded and checked; on a background thread.</summary>
    internal void KeepDecoded(int first, int last, byte[] decoded)
    {
        for (int c = first; c <= last && !_disposed; c++)
        {
            var key = KeyOf(c);
            if (table.Codecs[c] != ChunkCodec.Lz4 || store!.Contains(key))
                continue;
            var raw = KeptArray(table.RawLength(c));
            decoded.AsSpan((int)((long)(c - first) * table.ChunkSize), raw.Length).CopyTo(raw);
            if (ChunkTable.Hash(raw) == table.Hashes[c]) // checked again: copied from the caller's buffer, which it owns
                store.Add(key, raw);
        }
    }

    // Kept chunks live long (until evicted): on the pinned heap they are never copied by the GC's compaction, which
    // would otherwise move every decoded byte twice more on its way to generation 2.
    private static byte[] KeptArray(int length) => GC.AllocateUninitializedArray<byte>(length, pinned: true);

    private bool TryDecode(int index, Span<byte> output)
    {
        int storedLength = table.StoredLengths[index];
        var stored = ArrayPool<byte>.Shared.Rent(storedLength);
        try
        {
            ReadPack(extentOffset + table.StoredOffsets[index], stored.AsSpan(0, storedLength));
            return LZ4Codec.Decode(stored.AsSpan(0, storedLength), output) == output.Length;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    private ChunkKey KeyOf(int index) => new(_packIdentity!.Value, extentOffset, index, table.Hashes[index]);

    private void ReadPack(long offset, Span<byte> destination) => PackFiles.ReadExactly(pack, packPath, offset, destination);

    /// <summary>Stops the background work for this file; what it already kept stays in the store.</summary>
    public void Dispose() => _disposed = true;
}
