using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport;

/// <summary>Writes GTA IMG v2 originals for tests, from the format facts (kept apart from the product's reader and builder).</summary>
public static class ImgTestWriter
{
    private const int Sector = 2048;

    /// <summary>Writes the entries in order, each zero-padded to whole 2048-byte sectors, after a sector-aligned directory.</summary>
    public static byte[] Write(IReadOnlyList<(string Name, byte[] Data)> entries)
    {
        int n = entries.Count;
        long dataStart = (8 + 32L * n + Sector - 1) / Sector * Sector;
        var output = new MemoryStream();
        output.Write(new byte[dataStart]);
        var records = new (long Sector, long Sectors)[n];
        for (int i = 0; i < n; i++)
        {
            long sectors = (entries[i].Data.Length + Sector - 1) / Sector;
            records[i] = (output.Position / Sector, sectors);
            output.Write(entries[i].Data);
            output.Write(new byte[sectors * Sector - entries[i].Data.Length]);
        }

        var bytes = output.ToArray();
        "VER2"u8.CopyTo(bytes);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(4), (uint)n);
        for (int i = 0; i < n; i++)
        {
            var record = bytes.AsSpan(8 + 32 * i, 32);
            BinaryPrimitives.WriteUInt32LittleEndian(record, (uint)records[i].Sector);
            BinaryPrimitives.WriteUInt16LittleEndian(record[4..], checked((ushort)records[i].Sectors));
            Encoding.ASCII.GetBytes(entries[i].Name).CopyTo(record[8..]);
        }
        return bytes;
    }

    /// <summary>What an IMG reader sees for <paramref name="data"/>: the bytes zero-padded to whole sectors.</summary>
    public static byte[] Padded(byte[] data)
    {
        var padded = new byte[(data.Length + Sector - 1) / Sector * Sector];
        data.CopyTo(padded, 0);
        return padded;
    }
}
