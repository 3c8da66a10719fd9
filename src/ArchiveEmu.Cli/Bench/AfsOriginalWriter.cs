using System.Buffers.Binary;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Streams an AFS original to disk, entry by entry (a 1 GiB scenario never sits in memory): <c>AFS\0</c>, the
/// count, a u32 offset/size table, an empty name-table pointer, then each entry on a 0x800 boundary.
/// </summary>
internal sealed class AfsOriginalWriter : IDisposable
{
    private const int Alignment = 0x800;
    private readonly FileStream _stream;
    private readonly byte[] _table;
    private int _next;

    public AfsOriginalWriter(string path, int entryCount)
    {
        _stream = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 20);
        _table = new byte[RoundUp(8 + 8L * entryCount + 8)];
        "AFS\0"u8.CopyTo(_table);
        BinaryPrimitives.WriteInt32LittleEndian(_table.AsSpan(4), entryCount);
        _stream.Write(_table); // rewritten with the offsets at the end
    }

    public void Append(ReadOnlySpan<byte> entry)
    {
        long offset = _stream.Position;
        BinaryPrimitives.WriteUInt32LittleEndian(_table.AsSpan(8 + 8 * _next), checked((uint)offset));
        BinaryPrimitives.WriteUInt32LittleEndian(_table.AsSpan(12 + 8 * _next), (uint)entry.Length);
        _next++;
        _stream.Write(entry);
        _stream.Write(new byte[RoundUp(_stream.Position) - _stream.Position]);
    }

    public void Dispose()
    {
        _stream.Position = 0;
        _stream.Write(_table);
        _stream.Flush(flushToDisk: true); // durable, so dropping its pages later really empties the cache
        _stream.Dispose();
    }

    private static long RoundUp(long value) => (value + Alignment - 1) / Alignment * Alignment;
}
