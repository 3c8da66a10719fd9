using System.Buffers;
using ArchiveEmu.Core.VirtualFiles;
using K4os.Compression.LZ4;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// The LZ4 chunks of one open merged archive, decoded and hash-checked: taken from the <see cref="DecodedChunkStore"/>
/// when kept there, else decoded by whoever comes first — the reader, or <see cref="Lz4DecodeAhead"/> running ahead of a
/// reader that streams through whole chunks. Only chunks that pass their hash check are kept; a damaged one throws
/// <see cref="InvalidDataException"/> on the reader's thread, so the caller serves the read by emulation.
/// </summary>
internal sealed class Lz4Chunks(SafeFileHandle pack, string packPath, long extentOffset, ChunkTable table, DecodedChunkStore? store)
    : IDisposable
{
    // How far ahead of a streaming reader chunks are decoded: a few of the bench's 1 MiB reads, so the other core stays
    // busy across them, without decoding much that a reader who stops or jumps never reads.
    private const long AheadBytes = 4L << 20;
    private readonly int _aheadChunks = (int)Math.Max(Lz4DecodeAhead.PieceChunks, AheadBytes / table.ChunkSize);
    private readonly FileIdentity? _packIdentity = store is null ? null : IdentityOf(pack);
    private readonly int[] _decoding = new int[table.Count]; // 1 while someone decodes the chunk into the store
    private int _pass; // changes when the reader jumps: the work queued for the old position is dropped
    private int _readerAt; // the chunk after the last whole-chunk run read
    private int _queuedTo; // decoding was asked for up to here, in this pass
    private volatile bool _disposed;

    private bool Keeping => _packIdentity is not null;

    /// <summary>
    /// Fills <paramref name="target"/> with chunks <paramref name="first"/>…<paramref name="last"/>: LZ4 ones decoded and
    /// hash-checked, raw ones as stored (the caller checks those), and asks for the chunks after them to be decoded ahead.
    /// </summary>
    public void ReadRun(int first, int last, Span<byte> target)
    {
        if (Keeping)
            FollowReader(first, last + 1);
        for (int c = first, at = 0; c <= last; at += table.RawLength(c), c++)
        {
            var output = target.Slice(at, table.RawLength(c));
            if (table.Codecs[c] == ChunkCodec.Raw)
                ReadPack(extentOffset + table.StoredOffsets[c], output);
            else if (Keeping)
                Chunk(c).CopyTo(output);
            else
                DecodeChecked(c, output);
        }
    }

    /// <summary>Chunk <paramref name="index"/> (LZ4) decoded and hash-checked; the array is shared and must not be written.</summary>
    public byte[] Chunk(int index)
    {
        if (!Keeping)
        {
            var raw = new byte[table.RawLength(index)];
            DecodeChecked(index, raw);
            return raw;
        }
        var key = KeyOf(index);
        var spin = new SpinWait();
        while (true)
        {
            if (store!.TryGet(key, out var kept))
                return kept;
            if (Interlocked.CompareExchange(ref _decoding[index], 1, 0) == 0)
            {
                try
                {
                    if (store.TryGet(key, out kept)) // finished between the look and the claim
                        return kept;
                    var raw = new byte[table.RawLength(index)];
                    DecodeChecked(index, raw);
                    store.Add(key, raw);
                    return raw;
                }
                finally
                {
                    Volatile.Write(ref _decoding[index], 0);
                }
            }
            spin.SpinOnce(sleep1Threshold: -1); // a background thread is decoding it now: work under way, tens of µs
        }
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

    /// <summary>Decodes chunks [from, to) into the store unless the reader has passed them, jumped, or closed the file; on a background thread.</summary>
    internal void DecodeAhead(int from, int to, int pass)
    {
        byte[]? raw = null;
        for (int c = from; c < to; c++)
        {
            if (_disposed || Volatile.Read(ref _pass) != pass)
                return;
            if (c < Volatile.Read(ref _readerAt) || table.Codecs[c] != ChunkCodec.Lz4)
                continue;
            var key = KeyOf(c);
            if (store!.Contains(key) || Interlocked.CompareExchange(ref _decoding[c], 1, 0) != 0)
                continue;
            try
            {
                raw ??= new byte[table.RawLength(c)];
                if (raw.Length != table.RawLength(c))
                    raw = new byte[table.RawLength(c)];
                if (TryDecode(c, raw) && ChunkTable.Hash(raw) == table.Hashes[c])
                {
                    store.Add(key, raw);
                    raw = null;
                }
                // a damaged chunk is left for the reader, who decodes it, finds the damage and falls back to emulation
            }
            finally
            {
                Volatile.Write(ref _decoding[c], 0);
            }
        }
    }

    private void DecodeChecked(int index, Span<byte> output)
    {
        if (!TryDecode(index, output))
            throw new InvalidDataException($"{packPath}: chunk {index} does not decode");
        if (ChunkTable.Hash(output) != table.Hashes[index])
            throw new InvalidDataException($"{packPath}: chunk {index} fails its hash check");
    }

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

    private void ReadPack(long offset, Span<byte> destination)
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

    // Without the pack's identity its chunks cannot be told from a rebuilt pack's: they are decoded, never kept.
    private static FileIdentity? IdentityOf(SafeFileHandle pack)
    {
        try
        {
            return FileIdentity.Of(pack);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            return null;
        }
    }

    /// <summary>Stops the background work for this file; what it already kept stays in the store.</summary>
    public void Dispose() => _disposed = true;
}
