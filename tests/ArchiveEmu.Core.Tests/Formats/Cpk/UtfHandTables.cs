using System.Buffers.Binary;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>
/// @UTF tables written byte by byte in the test from the published layout (vgmstream cri_utf.c, CriFsV2Lib), not by
/// any writer: header at 0, columns at 0x20, rows, string pool, data pool; offsets from 0x08, big-endian.
/// </summary>
internal static class UtfHandTables
{
    // String pool: "<NULL>"@0 "T"@7 "a"@9 "b"@11 "c"@13 "s"@15 "d"@17 "f"@19 "x"@21 "y"@23, 25 bytes.
    public const int RowsAt = 0x40, StringsAt = 0x62, DataAt = 0x7B, End = 0x7E;

    /// <summary>
    /// Table "T", UTF-8, two rows. Columns: a u8 per row (7, 255); b s16 constant -2; c u32 zero; s string per row
    /// ("x", "y"); d data per row ([1,2,3], []); f float per row (1.5, -2).
    /// </summary>
    public static byte[] SixColumns()
    {
        var t = new byte[End];
        "@UTF"u8.CopyTo(t);
        U32(t, 4, End - 8);
        t[8] = 0;
        t[9] = 1; // UTF-8
        U16(t, 0xA, RowsAt - 8);
        U32(t, 0xC, StringsAt - 8);
        U32(t, 0x10, DataAt - 8);
        U32(t, 0x14, 7); // "T"
        U16(t, 0x18, 6);
        U16(t, 0x1A, 17); // 1 + 4 + 8 + 4
        U32(t, 0x1C, 2);
        int p = 0x20;
        p = Column(t, p, 0x50, 9);                 // a u8 per row
        p = Column(t, p, 0x33, 11);                // b s16 constant
        U16(t, p, 0xFFFE); p += 2;                 //   -2
        p = Column(t, p, 0x14, 13);                // c u32 zero
        p = Column(t, p, 0x5A, 15);                // s string per row
        p = Column(t, p, 0x5B, 17);                // d data per row
        p = Column(t, p, 0x58, 19);                // f float per row
        if (p != RowsAt)
            throw new InvalidOperationException($"columns end at 0x{p:X}");
        // row 0
        t[p++] = 7; U32(t, p, 21); p += 4; U32(t, p, 0); U32(t, p + 4, 3); p += 8; F32(t, p, 1.5f); p += 4;
        // row 1
        t[p++] = 255; U32(t, p, 23); p += 4; U32(t, p, 3); U32(t, p + 4, 0); p += 8; F32(t, p, -2f); p += 4;
        "<NULL>\0T\0a\0b\0c\0s\0d\0f\0x\0y\0"u8.CopyTo(t.AsSpan(p));
        p += 25;
        new byte[] { 1, 2, 3 }.CopyTo(t, p);
        return t;
    }

    /// <summary>The keystream, as the published DecryptUTF computes it: m = 0x655F, then m × 0x4115 per byte, low byte XORed.</summary>
    public static byte[] Masked(byte[] plain)
    {
        var masked = (byte[])plain.Clone();
        uint m = 0x0000655F;
        for (int i = 0; i < masked.Length; i++)
        {
            masked[i] ^= (byte)(m & 0xFF);
            m *= 0x00004115;
        }
        return masked;
    }

    public static void U16(byte[] t, int at, int value) => BinaryPrimitives.WriteUInt16BigEndian(t.AsSpan(at), (ushort)value);
    public static void U32(byte[] t, int at, long value) => BinaryPrimitives.WriteUInt32BigEndian(t.AsSpan(at), (uint)value);
    private static void F32(byte[] t, int at, float value) => BinaryPrimitives.WriteSingleBigEndian(t.AsSpan(at), value);

    private static int Column(byte[] t, int at, byte flag, int nameOffset)
    {
        t[at] = flag;
        U32(t, at + 1, nameOffset);
        return at + 5;
    }
}
