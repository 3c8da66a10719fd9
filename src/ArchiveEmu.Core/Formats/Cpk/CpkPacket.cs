using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// One table packet of a CPK: a 4-character magic ("CPK ", "TOC ", "ITOC", "ETOC", …), a u32 flag (0xFF for plain
/// tables, 0 for masked ones in CRI's files; kept as found), a u64 little-endian size, then the @UTF table
/// (CriPakTools CPK.cs ReadUTFData; PyCriCodecs cpk.py's chunk header).
/// </summary>
/// <param name="Magic">The packet's magic.</param>
/// <param name="Offset">Where the packet starts in the CPK.</param>
/// <param name="Length">0x10 plus the size field: the packet's bytes.</param>
/// <param name="Flag">The u32 at +4.</param>
/// <param name="Table">The table, unmasked.</param>
internal sealed record CpkPacket(string Magic, long Offset, long Length, uint Flag, UtfTable Table)
{
    public const int HeaderSize = 0x10;

    /// <summary>Reads and validates the packet at <paramref name="offset"/>, which must carry <paramref name="magic"/>.</summary>
    public static CpkPacket Read(ArchiveFileReader reader, long offset, string magic, string what)
    {
        var (flag, size) = ReadHead(reader, offset, magic, what);
        var table = UtfTableReader.Read(reader.ReadBytes(offset + HeaderSize, size, $"{what} table"), reader.Path, offset + HeaderSize);
        return new CpkPacket(magic, offset, HeaderSize + size, flag, table);
    }

    /// <summary>The flag and size of the packet at <paramref name="offset"/>, checked to lie in the file.</summary>
    public static (uint Flag, long Size) ReadHead(ArchiveFileReader reader, long offset, string? magic, string what)
    {
        if (!reader.Contains(offset, HeaderSize))
            throw reader.Corrupt(offset, $"{what} packet at {offset} is outside the {reader.Length}-byte file");
        var head = reader.ReadBytes(offset, HeaderSize, $"{what} packet header");
        if (magic is not null && !head.AsSpan(0, 4).SequenceEqual(Encoding.ASCII.GetBytes(magic)))
            throw reader.Corrupt(offset, $"{what} packet has no '{magic}' magic");
        ulong size = BinaryPrimitives.ReadUInt64LittleEndian(head.AsSpan(8));
        if (size > (ulong)(reader.Length - offset - HeaderSize))
            throw reader.Corrupt(offset + 8, $"{what} packet size {size} runs past the end of the {reader.Length}-byte file");
        return (BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(4)), (long)size);
    }

    /// <summary>This packet with <paramref name="table"/> written in it (masked again when it was).</summary>
    public byte[] Write(UtfTable table)
    {
        var bytes = UtfTableWriter.Write(table);
        var packet = new byte[HeaderSize + bytes.Length];
        Encoding.ASCII.GetBytes(Magic).CopyTo(packet, 0);
        BinaryPrimitives.WriteUInt32LittleEndian(packet.AsSpan(4), Flag);
        BinaryPrimitives.WriteUInt64LittleEndian(packet.AsSpan(8), (ulong)bytes.Length);
        bytes.CopyTo(packet, HeaderSize);
        return packet;
    }
}
