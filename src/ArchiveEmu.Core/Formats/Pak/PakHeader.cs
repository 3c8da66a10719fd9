using System.Text;

namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>Reads and writes a PAK record header: name[NameLength] (printable ASCII, then NULs) and an s32 size.</summary>
internal static class PakHeader
{
    /// <summary>True for one or more printable ASCII bytes followed only by NULs (a name filling the field has none).</summary>
    public static bool IsWellFormedName(ReadOnlySpan<byte> field)
    {
        int end = NameEnd(field);
        return end > 0
               && field[..end].IndexOfAnyExceptInRange((byte)0x20, (byte)0x7E) < 0
               && field[end..].IndexOfAnyExcept((byte)0) < 0;
    }

    public static string ReadName(ReadOnlySpan<byte> field) => Encoding.ASCII.GetString(field[..NameEnd(field)]);

    /// <summary>
    /// True when <paramref name="name"/> can be written as a new record's name: printable ASCII, with a
    /// byte to spare for the NUL so the game's C-string reads stop inside the field.
    /// </summary>
    public static bool FitsNewRecord(PakVariant variant, string name) =>
        name.Length > 0 && name.Length < variant.NameLength && name.All(c => c is >= ' ' and <= '~');

    /// <summary>A fresh header: the name, NULs to the end of the field, the size in the variant's byte order.</summary>
    public static byte[] Write(PakVariant variant, string name, int size)
    {
        var header = new byte[variant.HeaderLength];
        Encoding.ASCII.GetBytes(name, header.AsSpan(0, variant.NameLength));
        variant.WriteInt32(header.AsSpan(variant.NameLength), size);
        return header;
    }

    private static int NameEnd(ReadOnlySpan<byte> field)
    {
        int end = field.IndexOf((byte)0);
        return end < 0 ? field.Length : end;
    }
}
