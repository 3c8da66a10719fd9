using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// P5R's bust-up parameter entries as the tests write them, from the layout the merging mod reads (p5rpc.bustupparam.merging,
/// docs/TABLES.md): big-endian, BUSTUP_PARAM.DAT 0x28 bytes (u16 major, minor, sub, align; six floats; u32 flags, align),
/// MSGASSISTBUSTUPPARAM.DAT 0x20 bytes (u16 major, minor; six floats; u32 flags). Base X is given; the other floats are fixed.
/// </summary>
public static class BustupParamWriter
{
    /// <summary>A BUSTUP_PARAM.DAT entry.</summary>
    public static byte[] Bustup(ushort major, ushort minor, ushort sub, float baseX = 1, uint flags = 0)
    {
        var entry = new byte[0x28];
        BinaryPrimitives.WriteUInt16BigEndian(entry, major);
        BinaryPrimitives.WriteUInt16BigEndian(entry.AsSpan(2), minor);
        BinaryPrimitives.WriteUInt16BigEndian(entry.AsSpan(4), sub);
        BinaryPrimitives.WriteSingleBigEndian(entry.AsSpan(8), baseX);
        for (int f = 1; f < 6; f++)
            BinaryPrimitives.WriteSingleBigEndian(entry.AsSpan(8 + 4 * f), 10 * f);
        BinaryPrimitives.WriteUInt32BigEndian(entry.AsSpan(0x20), flags);
        return entry;
    }

    /// <summary>A MSGASSISTBUSTUPPARAM.DAT entry.</summary>
    public static byte[] Assist(ushort major, ushort minor, float baseX = 1, uint flags = 0)
    {
        var entry = new byte[0x20];
        BinaryPrimitives.WriteUInt16BigEndian(entry, major);
        BinaryPrimitives.WriteUInt16BigEndian(entry.AsSpan(2), minor);
        BinaryPrimitives.WriteSingleBigEndian(entry.AsSpan(4), baseX);
        for (int f = 1; f < 6; f++)
            BinaryPrimitives.WriteSingleBigEndian(entry.AsSpan(4 + 4 * f), 10 * f);
        BinaryPrimitives.WriteUInt32BigEndian(entry.AsSpan(0x1C), flags);
        return entry;
    }

    /// <summary>Entries one after another, as the files hold them.</summary>
    public static byte[] File(params byte[][] entries) => entries.SelectMany(e => e).ToArray();
}
