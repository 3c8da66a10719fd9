using System.Buffers.Binary;
using System.IO.Hashing;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// The envelope of the cache's JSON files (the index, <c>verified.bin</c>): 8 bytes of magic, i32 version, 4 reserved,
/// i64 payload length, the payload, u64 xxHash3 of the payload. Each file checks it on reading with its own messages.
/// </summary>
internal static class CacheEnvelope
{
    public static byte[] Seal(ReadOnlySpan<byte> magic, int version, ReadOnlySpan<byte> payload)
    {
        var bytes = new byte[24 + payload.Length + 8];
        magic.CopyTo(bytes);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), version);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(16), payload.Length);
        payload.CopyTo(bytes.AsSpan(24));
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(24 + payload.Length), XxHash3.HashToUInt64(payload));
        return bytes;
    }
}
