using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport;

/// <summary>Writes AFS originals for tests, from the format facts (kept apart from the product's reader and builder).</summary>
public static class AfsTestWriter
{
    public enum NameTable { None, AfterEntryTable, BeforeFirstData }

    /// <summary>Writes entries (null = empty slot) with names "name_i.bin", each on a 0x800 boundary.</summary>
    public static byte[] Write(IReadOnlyList<byte[]?> entries, NameTable table = NameTable.AfterEntryTable, int extraHeaderSectors = 0)
    {
        int n = entries.Count;
        long header = RoundUp(8 + 8L * n + 8) + 0x800L * extraHeaderSectors;
        var output = new MemoryStream();
        output.Write(new byte[header]);
        var offsets = new long[n];
        for (int i = 0; i < n; i++)
        {
            if (entries[i] is not { } data)
                continue;
            offsets[i] = output.Position;
            output.Write(data);
            output.Write(new byte[RoundUp(output.Position) - output.Position]);
        }
        long namesAt = output.Position;
        if (table != NameTable.None)
        {
            for (int i = 0; i < n; i++)
            {
                var record = new byte[48];
                Encoding.ASCII.GetBytes($"name_{i}.bin").CopyTo(record, 0);
                BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(32), 2001);
                BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(34), 9);
                BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(44), (uint)(entries[i]?.Length ?? 0));
                output.Write(record);
            }
            output.Write(new byte[RoundUp(output.Position) - output.Position]);
        }

        var bytes = output.ToArray();
        "AFS\0"u8.CopyTo(bytes);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(4), (uint)n);
        for (int i = 0; i < n; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8 + 8 * i), (uint)offsets[i]);
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(12 + 8 * i), (uint)(entries[i]?.Length ?? 0));
        }
        if (table != NameTable.None)
        {
            long pointer = table == NameTable.AfterEntryTable ? 8 + 8L * n : header - 8;
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)pointer), (uint)namesAt);
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)pointer + 4), (uint)(48 * n));
        }
        return bytes;
    }

    private static long RoundUp(long value) => (value + 0x7FF) / 0x800 * 0x800;
}
