using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport;

/// <summary>An Atlus PAK layout as the test writer and the independent reader know it (kept apart from the product's PakVariant).</summary>
/// <param name="Variant">"V1", "V2" or "V3", with "BE" for big-endian; also the product's variant name.</param>
/// <param name="Terminator">V1 only: end with an all-zero 256-byte record instead of at EOF.</param>
public sealed record PakTestLayout(string Variant, int NameLength, bool HasCount, bool BigEndian, bool Terminator = false)
{
    public static IReadOnlyList<PakTestLayout> All { get; } =
    [
        new("V1", 252, false, false, Terminator: true),
        new("V1", 252, false, false),
        new("V2", 32, true, false),
        new("V3", 24, true, false),
        new("V1BE", 252, false, true, Terminator: true),
        new("V1BE", 252, false, true),
        new("V2BE", 32, true, true),
        new("V3BE", 24, true, true),
    ];

    public bool IsV1 => !HasCount;
    public int HeaderLength => NameLength + 4;

    public override string ToString() => Variant + (Terminator ? "+terminator" : "");
}

/// <summary>Writes PAK originals for tests from the format facts: V1 records padded with zeros to 64, V2/V3 packed.</summary>
public static class PakTestWriter
{
    public static byte[] Write(PakTestLayout layout, IReadOnlyList<(string Name, byte[] Data)> entries)
    {
        var output = new MemoryStream();
        if (layout.HasCount)
            output.Write(Int32(layout, entries.Count));
        foreach (var (name, data) in entries)
        {
            var field = new byte[layout.NameLength];
            Encoding.ASCII.GetBytes(name).CopyTo(field, 0);
            output.Write(field);
            output.Write(Int32(layout, data.Length));
            output.Write(data);
            if (layout.IsV1)
                output.Write(new byte[RoundUp64(output.Position) - output.Position]);
        }
        if (layout.Terminator)
            output.Write(new byte[256]);
        return output.ToArray();
    }

    /// <summary>Where each record starts in what <see cref="Write"/> makes of records of these sizes.</summary>
    public static long[] RecordStarts(PakTestLayout layout, IEnumerable<int> sizes)
    {
        long at = layout.HasCount ? 4 : 0;
        var starts = new List<long>();
        foreach (var size in sizes)
        {
            starts.Add(at);
            at += layout.HeaderLength + size;
            if (layout.IsV1)
                at = RoundUp64(at);
        }
        return starts.ToArray();
    }

    /// <summary>The length of a well-formed archive holding records of these sizes (every V1 record padded, terminator included).</summary>
    public static long ExpectedLength(PakTestLayout layout, IEnumerable<int> sizes)
    {
        var list = sizes.ToList();
        long records = list.Count == 0 ? (layout.HasCount ? 4 : 0) : RecordStarts(layout, list)[^1] + layout.HeaderLength + list[^1];
        if (layout.IsV1)
            records = RoundUp64(records);
        return records + (layout.Terminator ? 256 : 0);
    }

    public static byte[] Int32(PakTestLayout layout, int value)
    {
        var bytes = new byte[4];
        if (layout.BigEndian)
            BinaryPrimitives.WriteInt32BigEndian(bytes, value);
        else
            BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }

    private static long RoundUp64(long value) => (value + 63) / 64 * 64;
}
