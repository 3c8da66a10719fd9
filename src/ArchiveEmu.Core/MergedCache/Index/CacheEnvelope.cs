using System.Buffers.Binary;
using System.IO.Hashing;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>
/// The envelope of every file the cache folder keeps besides its packs (the index, <c>verified.bin</c>, the kept route plans):
/// 8 bytes of magic, i32 version, 4 reserved, i64 payload length, the payload, u64 xxHash3 of the payload. Each file opens it
/// with <see cref="Open"/> and words what is wrong in its own terms.
/// </summary>
internal static class CacheEnvelope
{
    /// <summary>The bytes around the payload: 24 before, 8 after.</summary>
    public const int Overhead = 32;

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

    /// <summary>
    /// What is wrong with the sealed <paramref name="bytes"/>, in the order it is checked, or <see cref="EnvelopeProblem.None"/>
    /// with the payload's place in <paramref name="payload"/>; <paramref name="version"/> is the version found (0 when the magic is not there).
    /// </summary>
    public static EnvelopeProblem Open(ReadOnlySpan<byte> bytes, ReadOnlySpan<byte> magic, int expectedVersion, out Range payload, out int version)
    {
        (payload, version) = (default, 0);
        if (bytes.Length < Overhead || !bytes[..8].SequenceEqual(magic))
            return EnvelopeProblem.NotOne;
        version = BinaryPrimitives.ReadInt32LittleEndian(bytes[8..]);
        if (version != expectedVersion)
            return EnvelopeProblem.OtherVersion;
        long length = BinaryPrimitives.ReadInt64LittleEndian(bytes[16..]);
        if (length != bytes.Length - Overhead)
            return EnvelopeProblem.WrongLength;
        payload = 24..(24 + (int)length);
        return XxHash3.HashToUInt64(bytes[payload]) == BinaryPrimitives.ReadUInt64LittleEndian(bytes[(24 + (int)length)..])
            ? EnvelopeProblem.None : EnvelopeProblem.WrongChecksum;
    }
}

/// <summary>What <see cref="CacheEnvelope.Open"/> finds wrong.</summary>
internal enum EnvelopeProblem
{
    None,

    /// <summary>Too short for an envelope, or another kind of file (its magic).</summary>
    NotOne,

    /// <summary>The right kind, written by another version of its format.</summary>
    OtherVersion,

    /// <summary>Truncated or padded: the length it states is not what is there.</summary>
    WrongLength,

    /// <summary>The payload is not what was sealed.</summary>
    WrongChecksum,
}
