namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// The XOR mask some games put on @UTF tables: byte i is XORed with the low byte of m_i, where m_0 = 0x655F and
/// m_(i+1) = m_i × 0x4115 (CriPakTools CPK.cs DecryptUTF; CriFsV2Lib TableDecryptor). Masking and unmasking are the same.
/// </summary>
internal static class UtfMask
{
    /// <summary>XORs <paramref name="bytes"/> with the keystream, in place.</summary>
    public static void Apply(Span<byte> bytes)
    {
        uint m = 0x655F;
        for (int i = 0; i < bytes.Length; i++)
        {
            bytes[i] ^= (byte)m;
            m = unchecked(m * 0x4115);
        }
    }

    /// <summary>True when <paramref name="head"/> (at least 4 bytes) unmasks to "@UTF".</summary>
    public static bool IsMaskedUtf(ReadOnlySpan<byte> head)
    {
        if (head.Length < 4)
            return false;
        Span<byte> first = stackalloc byte[4];
        head[..4].CopyTo(first);
        Apply(first);
        return first.SequenceEqual("@UTF"u8);
    }
}
