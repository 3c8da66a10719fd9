using System.Buffers.Binary;
using System.IO.Hashing;
using ArchiveEmu.Core.MergedCache.Index;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>How one chunk of a merged archive is stored.</summary>
internal enum ChunkCodec : byte { Raw = 0, Lz4 = 1 }

/// <summary>
/// Per chunk of a merged archive: its stored size, codec, and xxHash3 of its uncompressed bytes.
/// Serialised as a version byte, a u32 count and 13 bytes per chunk, little-endian.
/// </summary>
internal sealed class ChunkTable
{
    private const byte Version = 1;
    private const int RecordSize = 13;

    internal ChunkTable(int chunkSize, long length, int[] storedLengths, ChunkCodec[] codecs, ulong[] hashes)
    {
        ChunkSize = chunkSize;
        Length = length;
        StoredLengths = storedLengths;
        Codecs = codecs;
        Hashes = hashes;
        StoredOffsets = new long[storedLengths.Length + 1];
        for (int i = 0; i < storedLengths.Length; i++)
            StoredOffsets[i + 1] = StoredOffsets[i] + storedLengths[i];
        StoredAsIs = Enumerable.Range(0, Count).All(i => codecs[i] == ChunkCodec.Raw && storedLengths[i] == RawLength(i));
    }

    public int ChunkSize { get; }
    public long Length { get; }
    public int Count => StoredLengths.Length;
    public int[] StoredLengths { get; }
    public ChunkCodec[] Codecs { get; }
    internal ulong[] Hashes { get; }

    /// <summary>Where chunk i starts, relative to the extent; the last element is the extent's length.</summary>
    public long[] StoredOffsets { get; }

    /// <summary>Every chunk raw: the extent holds the archive's bytes unchanged, byte i at offset i.</summary>
    internal bool StoredAsIs { get; }

    /// <summary>Uncompressed size of chunk <paramref name="index"/>.</summary>
    public int RawLength(int index) => (int)Math.Min(ChunkSize, Length - (long)index * ChunkSize);

    internal static int ChunkCount(long length, int chunkSize) => checked((int)((length + chunkSize - 1) / chunkSize));

    internal byte[] Serialize()
    {
        var bytes = new byte[5 + Count * RecordSize];
        bytes[0] = Version;
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(1), Count);
        for (int i = 0; i < Count; i++)
        {
            var record = bytes.AsSpan(5 + i * RecordSize, RecordSize);
            BinaryPrimitives.WriteInt32LittleEndian(record, StoredLengths[i]);
            record[4] = (byte)Codecs[i];
            BinaryPrimitives.WriteUInt64LittleEndian(record[5..], Hashes[i]);
        }
        return bytes;
    }

    /// <summary>Parses a table whose bytes already matched their hash; every field is still checked against the entry.</summary>
    internal static ChunkTable Deserialize(ReadOnlySpan<byte> bytes, MergedExtent extent)
    {
        // The entry's own sizes passed only the index's checksum (found by fuzzing: a chunk size of 0 divided by zero).
        if (extent.ChunkSize <= 0 || extent.Length < 0 || extent.Length / extent.ChunkSize >= int.MaxValue)
            throw new InvalidDataException($"entry lists {extent.Length} bytes in chunks of {extent.ChunkSize}");
        int expected = ChunkCount(extent.Length, extent.ChunkSize);
        if (bytes.Length < 5 || bytes[0] != Version)
            throw new InvalidDataException("chunk table has an unknown version");
        int count = BinaryPrimitives.ReadInt32LittleEndian(bytes[1..]);
        if (count != expected || bytes.Length != 5 + (long)count * RecordSize)
            throw new InvalidDataException($"chunk table lists {count} chunks, the entry needs {expected}");
        var lengths = new int[count];
        var codecs = new ChunkCodec[count];
        var hashes = new ulong[count];
        for (int i = 0; i < count; i++)
        {
            var record = bytes.Slice(5 + i * RecordSize, RecordSize);
            lengths[i] = BinaryPrimitives.ReadInt32LittleEndian(record);
            codecs[i] = (ChunkCodec)record[4];
            hashes[i] = BinaryPrimitives.ReadUInt64LittleEndian(record[5..]);
            if (lengths[i] <= 0 || lengths[i] > extent.ChunkSize || codecs[i] > ChunkCodec.Lz4)
                throw new InvalidDataException($"chunk {i} has a bad size or codec");
        }
        var table = new ChunkTable(extent.ChunkSize, extent.Length, lengths, codecs, hashes);
        if (table.StoredOffsets[^1] != extent.Chunks.Length)
            throw new InvalidDataException("chunk sizes do not add up to the stored extent");
        return table;
    }

    internal static ulong Hash(ReadOnlySpan<byte> raw) => XxHash3.HashToUInt64(raw);
}
