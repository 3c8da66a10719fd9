using System.Buffers.Binary;

namespace ArchiveEmu.Core.Merges.Bustup;

/// <summary>
/// One of the two files P5R's bust-up merging mod merges (<c>DeathChaos25/p5rpc.bustupparam.merging</c>, <c>BustupParam.cs</c> and
/// <c>BustupParamAssist.cs</c>): big-endian, no header, whole entries of <see cref="EntrySize"/> bytes (bytes past the last whole
/// entry are not read), each keyed by its first u16 ids. <see cref="Fields"/> lists each entry's fields as the mod compares them:
/// by value, so a float -0.0 equals 0.0 and a NaN equals nothing.
/// </summary>
/// <param name="GamePath">Where the merged file is served, its path in the CPK.</param>
/// <param name="FileName">The name a mod's file has, at any depth of a CRI probing folder.</param>
/// <param name="OriginalName">The merging mod's own copy of the game's file, under its <c>Original/</c> folder: the merge's base.</param>
/// <param name="EntrySize">Bytes per entry.</param>
/// <param name="KeyFields">How many u16 ids at the entry's start key it (major, minor and, for BUSTUP_PARAM, sub).</param>
/// <param name="Fields">The entry's fields in order: 'h' a u16, 'f' a float, 'i' a u32.</param>
internal sealed record BustupParamFile(string GamePath, string FileName, string OriginalName, int EntrySize, int KeyFields, string Fields)
{
    /// <summary>BUSTUP_PARAM.DAT: Major, Minor, Sub, Align1 (u16), base, eye and mouth X/Y (floats), Flags and Align3 (u32): 0x28 bytes.</summary>
    public static readonly BustupParamFile Bustup = new("BUSTUP/DATA/BUSTUP_PARAM.DAT", "BUSTUP_PARAM.DAT", "BUSTUP_PARAM_Original.DAT", 0x28, 3, "hhhhffffffii");

    /// <summary>MSGASSISTBUSTUPPARAM.DAT: Major, Minor (u16), base, eye and mouth X/Y (floats), Flags (u32): 0x20 bytes.</summary>
    public static readonly BustupParamFile Assist = new("FONT/ASSIST/BUSTUP/MSGASSISTBUSTUPPARAM.DAT", "MSGASSISTBUSTUPPARAM.DAT",
        "MSGASSISTBUSTUPPARAM_Original.DAT", 0x20, 2, "hhffffffi");

    public static IReadOnlyList<BustupParamFile> Both { get; } = [Bustup, Assist];

    /// <summary>The entries of <paramref name="bytes"/>, whole ones only, in file order.</summary>
    public List<ReadOnlyMemory<byte>> Entries(ReadOnlyMemory<byte> bytes)
    {
        var entries = new List<ReadOnlyMemory<byte>>(bytes.Length / EntrySize);
        for (int at = 0; at + EntrySize <= bytes.Length; at += EntrySize)
            entries.Add(bytes.Slice(at, EntrySize));
        return entries;
    }

    /// <summary>The entry's key: its first <see cref="KeyFields"/> big-endian u16 ids, packed so keys order as the mod sorts them.</summary>
    public ulong Key(ReadOnlySpan<byte> entry)
    {
        ulong key = 0;
        for (int i = 0; i < 3; i++)
            key = key << 16 | (i < KeyFields ? BinaryPrimitives.ReadUInt16BigEndian(entry[(2 * i)..]) : 0u);
        return key;
    }

    /// <summary>Whether two entries hold the same values, field by field as the merging mod's <c>ValuesEqual</c> compares them.</summary>
    public bool SameValues(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        int at = 0;
        foreach (char field in Fields)
        {
            bool same = field switch
            {
                'h' => BinaryPrimitives.ReadUInt16BigEndian(a[at..]) == BinaryPrimitives.ReadUInt16BigEndian(b[at..]),
                'f' => BinaryPrimitives.ReadSingleBigEndian(a[at..]) == BinaryPrimitives.ReadSingleBigEndian(b[at..]),
                _ => BinaryPrimitives.ReadUInt32BigEndian(a[at..]) == BinaryPrimitives.ReadUInt32BigEndian(b[at..]),
            };
            if (!same)
                return false;
            at += field == 'h' ? 2 : 4;
        }
        return true;
    }
}
