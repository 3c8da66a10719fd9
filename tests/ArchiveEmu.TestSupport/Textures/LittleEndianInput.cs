using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>Bounds-checked little-endian reads for the independent readers: a read past the end is an InvalidDataException naming the offset.</summary>
internal sealed class LittleEndianInput(byte[] bytes, string what)
{
    public byte[] Bytes { get; } = bytes;

    public long Length => Bytes.Length;

    public InvalidDataException Error(long offset, string problem) =>
        new($"{what} at offset 0x{offset:X}: {problem}");

    public void Need(long offset, long count, string field)
    {
        if (offset < 0 || count < 0 || offset > Length || count > Length - offset)
            throw Error(offset, $"{field} ({count} bytes) runs past the end of the {Length}-byte file");
    }

    public uint U32(long offset, string field)
    {
        Need(offset, 4, field);
        return BinaryPrimitives.ReadUInt32LittleEndian(Bytes.AsSpan((int)offset));
    }

    public int I32(long offset, string field) => unchecked((int)U32(offset, field));

    public ushort U16(long offset, string field)
    {
        Need(offset, 2, field);
        return BinaryPrimitives.ReadUInt16LittleEndian(Bytes.AsSpan((int)offset));
    }

    public byte U8(long offset, string field)
    {
        Need(offset, 1, field);
        return Bytes[offset];
    }

    public byte[] Slice(long offset, long count, string field)
    {
        Need(offset, count, field);
        return Bytes.AsSpan((int)offset, (int)count).ToArray();
    }

    /// <summary>A fixed-size ASCII name field: must hold a NUL; the text before it is returned.</summary>
    public string Name(long offset, int size, string field)
    {
        Need(offset, size, field);
        var raw = Bytes.AsSpan((int)offset, size);
        int nul = raw.IndexOf((byte)0);
        if (nul < 0)
            throw Error(offset, $"{field} has no terminating NUL in its {size} bytes");
        foreach (var b in raw[..nul])
            if (b < 0x20 || b > 0x7E)
                throw Error(offset, $"{field} holds the non-printable byte 0x{b:X2}");
        return Encoding.ASCII.GetString(raw[..nul]);
    }

    /// <summary>A fixed-size free-text field (comments, which games fill with Shift-JIS): the bytes before the first NUL, as Latin-1.</summary>
    public string Text(long offset, int size, string field)
    {
        Need(offset, size, field);
        var raw = Bytes.AsSpan((int)offset, size);
        int nul = raw.IndexOf((byte)0);
        return Encoding.Latin1.GetString(nul < 0 ? raw : raw[..nul]);
    }

    /// <summary>Throws when two of the (start, length, label) ranges overlap.</summary>
    public void NoOverlap(IEnumerable<(long Start, long Length, string Label)> ranges)
    {
        var sorted = ranges.Where(r => r.Length > 0).OrderBy(r => r.Start).ToList();
        for (int i = 1; i < sorted.Count; i++)
            if (sorted[i - 1].Start + sorted[i - 1].Length > sorted[i].Start)
                throw Error(sorted[i].Start, $"{sorted[i].Label} overlaps {sorted[i - 1].Label}");
    }
}
