using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>One Atlus PAK layout: the length of each record's name field, whether an entry count leads, record alignment and byte order.</summary>
/// <param name="Name">"V1", "V2" or "V3", with "BE" appended for the big-endian (PS3) forms.</param>
/// <param name="NameLength">Bytes in a record's name field (252, 32 or 24); the s32 size follows it.</param>
/// <param name="HasCount">True when an s32 entry count starts the file (V2, V3); V1 runs to EOF or an all-zero record.</param>
/// <param name="Alignment">Records start on multiples of this (64 for V1; 1, packed, for V2 and V3).</param>
/// <param name="BigEndian">The count and sizes are big-endian.</param>
internal sealed record PakVariant(string Name, int NameLength, bool HasCount, int Alignment, bool BigEndian)
{
    public static PakVariant V1 { get; } = new("V1", 252, false, 64, false);
    public static PakVariant V2 { get; } = new("V2", 32, true, 1, false);
    public static PakVariant V3 { get; } = new("V3", 24, true, 1, false);
    public static PakVariant V1BE { get; } = V1 with { Name = "V1BE", BigEndian = true };
    public static PakVariant V2BE { get; } = V2 with { Name = "V2BE", BigEndian = true };
    public static PakVariant V3BE { get; } = V3 with { Name = "V3BE", BigEndian = true };

    /// <summary>All six, in detection order: the little-endian forms first, then the byte-swapped ones.</summary>
    public static IReadOnlyList<PakVariant> All { get; } = [V1, V2, V3, V1BE, V2BE, V3BE];

    /// <summary>Name field plus the s32 size.</summary>
    public int HeaderLength => NameLength + 4;

    /// <summary>Where the first record starts: after the count, when there is one.</summary>
    public int FirstRecordOffset => HasCount ? 4 : 0;

    public int ReadInt32(ReadOnlySpan<byte> bytes) =>
        BigEndian ? BinaryPrimitives.ReadInt32BigEndian(bytes) : BinaryPrimitives.ReadInt32LittleEndian(bytes);

    public void WriteInt32(Span<byte> bytes, int value)
    {
        if (BigEndian)
            BinaryPrimitives.WriteInt32BigEndian(bytes, value);
        else
            BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
    }

    /// <summary>Where the record after one whose data ends at <paramref name="dataEnd"/> starts.</summary>
    public long NextRecordOffset(long dataEnd) => (dataEnd + Alignment - 1) / Alignment * Alignment;

    public override string ToString() => Name;
}
