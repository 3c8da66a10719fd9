using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats;

/// <summary>A DDS pixel format's FourCC as text, for listings and error messages.</summary>
internal static class FourCc
{
    /// <summary>The four characters ("DXT1", "DX10", "ATI2"), or "FourCC 0x…" when they are not printable.</summary>
    public static string Text(uint fourCc)
    {
        Span<byte> b = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(b, fourCc);
        foreach (byte c in b)
        {
            if (c is < 0x21 or > 0x7E)
                return $"FourCC 0x{fourCc:X8}";
        }
        return Encoding.ASCII.GetString(b);
    }
}
