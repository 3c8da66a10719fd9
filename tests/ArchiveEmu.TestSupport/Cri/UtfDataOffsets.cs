using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// Where each data value (type 0xB) of an unmasked @UTF table lies in its file, which <see cref="UtfIndependentReader"/>
/// does not report: written from the same public layout (big-endian header at 8: version, rows, strings, data, name,
/// column count, row width, row count; a column is a flag byte and a name offset, plus its value when constant; a data
/// value is an offset into the data pool and a size), sharing no code with src. For alignment checks of a built table.
/// </summary>
public static class UtfDataOffsets
{
    /// <summary>One data value: its row and column, its offset in the file and its size.</summary>
    public sealed record Field(int Row, string Column, long Offset, long Size);

    private static readonly int[] Sizes = [1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 8];

    /// <summary>Every data value of the table at the start of <paramref name="file"/>, row by row in column order.</summary>
    public static IReadOnlyList<Field> Read(byte[] file)
    {
        Assert.That(Encoding.ASCII.GetString(file, 0, 4), Is.EqualTo("@UTF"), "an unmasked @UTF table at offset 0");
        int rows = BinaryPrimitives.ReadUInt16BigEndian(file.AsSpan(10)) + 8;
        int strings = (int)BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(12)) + 8;
        int data = (int)BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(16)) + 8;
        int columnCount = BinaryPrimitives.ReadUInt16BigEndian(file.AsSpan(24));
        int width = BinaryPrimitives.ReadUInt16BigEndian(file.AsSpan(26));
        int rowCount = (int)BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(28));

        var columns = new List<(string Name, int Type, int Storage, int At)>();
        int pos = 32, rowPos = 0;
        for (int c = 0; c < columnCount; c++)
        {
            int flag = file[pos];
            string name = StringAt(file, strings, (int)BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(pos + 1)));
            pos += 5;
            int type = flag & 0x0F, storage = flag & 0xF0;
            if (storage == 0x30)
            {
                columns.Add((name, type, storage, pos));
                pos += Sizes[type];
            }
            else if (storage == 0x50)
            {
                columns.Add((name, type, storage, rowPos));
                rowPos += Sizes[type];
            }
        }
        Assert.That((pos, rowPos), Is.EqualTo((rows, width)), "the schema ends at the rows, the per-row columns fill a row");

        var fields = new List<Field>();
        for (int r = 0; r < rowCount; r++)
            foreach (var (name, type, storage, at) in columns.Where(c => c.Type == 0xB))
            {
                int where = storage == 0x30 ? at : rows + r * width + at;
                fields.Add(new Field(r, name, data + BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(where)),
                    BinaryPrimitives.ReadUInt32BigEndian(file.AsSpan(where + 4))));
            }
        return fields;
    }

    private static string StringAt(byte[] file, int pool, int offset)
    {
        int start = pool + offset, end = Array.IndexOf(file, (byte)0, start);
        return Encoding.UTF8.GetString(file, start, end - start);
    }
}
