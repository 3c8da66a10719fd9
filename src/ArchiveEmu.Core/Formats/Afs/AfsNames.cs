using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Afs;

/// <summary>Reads and writes AFS name-table records: name[32], six u16 (y, m, d, h, min, s), u32 size.</summary>
internal static class AfsNames
{
    private const int NameLength = 32;

    public static string? Read(byte[] records, int index)
    {
        var name = records.AsSpan(index * AfsFormat.NameRecordSize, NameLength);
        int end = name.IndexOf((byte)0);
        var text = Encoding.Latin1.GetString(end < 0 ? name : name[..end]);
        return text.Length == 0 ? null : text;
    }

    public static void SetSize(Span<byte> record, long size) =>
        BinaryPrimitives.WriteUInt32LittleEndian(record[44..], (uint)size);

    /// <summary>A record for an added entry: its name and date from the input file, when it is one.</summary>
    public static void WriteNew(Span<byte> record, int index, EntryInput? input)
    {
        record.Clear();
        string name = input?.Path is { } path ? Path.GetFileName(path) : $"entry_{index:D4}";
        var bytes = Encoding.ASCII.GetBytes(name);
        bytes.AsSpan(0, Math.Min(bytes.Length, NameLength)).CopyTo(record);
        if (input?.Identity is { } identity) // the mtime seen when the input was made: no stat per added entry
        {
            var t = identity.LastWriteUtc.ToLocalTime();
            ushort[] date = [(ushort)t.Year, (ushort)t.Month, (ushort)t.Day, (ushort)t.Hour, (ushort)t.Minute, (ushort)t.Second];
            for (int i = 0; i < date.Length; i++)
                BinaryPrimitives.WriteUInt16LittleEndian(record[(NameLength + 2 * i)..], date[i]);
        }
        SetSize(record, input?.Length ?? 0);
    }
}
