using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Awb;

/// <summary>
/// The fixed 16-byte AFS2 header: <c>AFS2</c>, u8 version, u8 position width (2/4/8), u8 id width (2/4),
/// u8 reserved, u32 count, u16 alignment, u16 subkey. Ids and positions follow at 0x10.
/// </summary>
/// <param name="Version">Kept as found.</param>
/// <param name="PositionWidth">Bytes per stored position: 2, 4 or 8.</param>
/// <param name="IdWidth">Bytes per stored id: 2 or 4.</param>
/// <param name="Reserved">The byte at 0x07 (0 in every known file), kept as found.</param>
/// <param name="Alignment">Entry data starts on a multiple of this (0 and 1 mean no alignment).</param>
/// <param name="Subkey">The decryption subkey; the entries' bytes depend on it, so it is kept.</param>
internal sealed record AwbHeader(byte Version, int PositionWidth, int IdWidth, byte Reserved, ushort Alignment, ushort Subkey)
{
    public const int Size = 0x10;

    /// <summary>Where the position table ends (and pos[0] points) for <paramref name="count"/> entries.</summary>
    public long TableEnd(long count) => Size + count * IdWidth + (count + 1) * PositionWidth;

    /// <summary>The largest position the position width can hold.</summary>
    public long MaxPosition => PositionWidth switch { 2 => ushort.MaxValue, 4 => uint.MaxValue, _ => long.MaxValue };

    /// <summary>Rounds <paramref name="value"/> up to the alignment.</summary>
    public long Align(long value) => Alignment <= 1 ? value : (value + Alignment - 1) / Alignment * Alignment;

    /// <summary>Writes this header, the ids and the positions as one table (ids and positions.Length − 1 entries).</summary>
    public byte[] WriteTable(IReadOnlyList<uint> ids, long[] positions)
    {
        var table = new byte[TableEnd(ids.Count)];
        "AFS2"u8.CopyTo(table);
        table[4] = Version;
        table[5] = (byte)PositionWidth;
        table[6] = (byte)IdWidth;
        table[7] = Reserved;
        BinaryPrimitives.WriteUInt32LittleEndian(table.AsSpan(8), (uint)ids.Count);
        BinaryPrimitives.WriteUInt16LittleEndian(table.AsSpan(0xC), Alignment);
        BinaryPrimitives.WriteUInt16LittleEndian(table.AsSpan(0xE), Subkey);
        var at = table.AsSpan(Size);
        foreach (var id in ids)
        {
            WriteUnsigned(at, IdWidth, id);
            at = at[IdWidth..];
        }
        foreach (var position in positions)
        {
            WriteUnsigned(at, PositionWidth, (ulong)position);
            at = at[PositionWidth..];
        }
        return table;
    }

    /// <summary>Reads a little-endian unsigned value of 2, 4 or 8 bytes.</summary>
    public static ulong ReadUnsigned(ReadOnlySpan<byte> bytes, int width) => width switch
    {
        2 => BinaryPrimitives.ReadUInt16LittleEndian(bytes),
        4 => BinaryPrimitives.ReadUInt32LittleEndian(bytes),
        _ => BinaryPrimitives.ReadUInt64LittleEndian(bytes),
    };

    private static void WriteUnsigned(Span<byte> bytes, int width, ulong value)
    {
        switch (width)
        {
            case 2: BinaryPrimitives.WriteUInt16LittleEndian(bytes, checked((ushort)value)); break;
            case 4: BinaryPrimitives.WriteUInt32LittleEndian(bytes, checked((uint)value)); break;
            default: BinaryPrimitives.WriteUInt64LittleEndian(bytes, value); break;
        }
    }
}
