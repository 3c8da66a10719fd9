using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport;

/// <summary>Writes AWB (AFS2) originals for tests, from the format facts (kept apart from the product's reader and builder).</summary>
public static class AwbTestWriter
{
    /// <summary>The header fields a test can choose; ids default to 0..n-1.</summary>
    public sealed record Options(int PositionWidth = 4, int IdWidth = 2, int Alignment = 0x20, ushort Subkey = 0, byte Version = 2, uint[]? Ids = null);

    /// <summary>Writes entries (null = empty) each on an alignment boundary, storing unaligned ends as CRI's writer does.</summary>
    public static byte[] Write(IReadOnlyList<byte[]?> entries, Options? options = null)
    {
        var o = options ?? new Options();
        int n = entries.Count;
        long tableEnd = 0x10 + (long)n * o.IdWidth + (n + 1L) * o.PositionWidth;
        var output = new MemoryStream();
        output.Write(new byte[tableEnd]);
        var positions = new long[n + 1];
        positions[0] = tableEnd;
        for (int i = 0; i < n; i++)
        {
            long align = Math.Max(1, o.Alignment);
            output.Write(new byte[(align - output.Position % align) % align]);
            output.Write(entries[i] ?? []);
            positions[i + 1] = output.Position;
        }

        var bytes = output.ToArray();
        "AFS2"u8.CopyTo(bytes);
        bytes[4] = o.Version;
        bytes[5] = (byte)o.PositionWidth;
        bytes[6] = (byte)o.IdWidth;
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8), (uint)n);
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(0xC), (ushort)o.Alignment);
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(0xE), o.Subkey);
        for (int i = 0; i < n; i++)
            Put(bytes.AsSpan(0x10 + i * o.IdWidth), o.IdWidth, o.Ids?[i] ?? (ulong)i);
        for (int i = 0; i <= n; i++)
            Put(bytes.AsSpan((int)(0x10 + (long)n * o.IdWidth + (long)i * o.PositionWidth)), o.PositionWidth, (ulong)positions[i]);
        return bytes;
    }

    private static void Put(Span<byte> at, int width, ulong value)
    {
        if (width == 2)
            BinaryPrimitives.WriteUInt16LittleEndian(at, checked((ushort)value));
        else if (width == 4)
            BinaryPrimitives.WriteUInt32LittleEndian(at, checked((uint)value));
        else
            BinaryPrimitives.WriteUInt64LittleEndian(at, value);
    }
}
