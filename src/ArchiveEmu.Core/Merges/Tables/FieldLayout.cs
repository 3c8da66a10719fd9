namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// The fields of one table segment: records of <see cref="RecordSize"/> bytes repeating from the segment's start,
/// each made of fields of the given widths in order. A changed byte is widened to the field that holds it.
/// </summary>
internal sealed class FieldLayout
{
    private readonly byte[] _fieldStart; // per offset within a record: how far back its field starts
    private readonly byte[] _fieldWidth; // per offset within a record: the width of its field

    private FieldLayout(int[] widths, string text)
    {
        RecordSize = widths.Sum();
        Text = text;
        _fieldStart = new byte[RecordSize];
        _fieldWidth = new byte[RecordSize];
        int at = 0;
        foreach (int width in widths)
        {
            for (int i = 0; i < width; i++)
                (_fieldStart[at + i], _fieldWidth[at + i]) = ((byte)i, (byte)width);
            at += width;
        }
    }

    /// <summary>The size of one record in bytes.</summary>
    public int RecordSize { get; }

    /// <summary>The layout as written in the catalogue (for messages and docs).</summary>
    public string Text { get; }

    /// <summary>Every byte is its own field (the segments Essentials diffs byte by byte).</summary>
    public static FieldLayout Bytes { get; } = Parse("1");

    /// <summary>An array of 16-bit values.</summary>
    public static FieldLayout U16 { get; } = Parse("2");

    /// <summary>An array of 32-bit values.</summary>
    public static FieldLayout U32 { get; } = Parse("4");

    /// <summary>The layout of a flat file of <paramref name="width"/>-byte fields.</summary>
    public static FieldLayout OfWidth(int width) => width switch
    {
        1 => Bytes,
        2 => U16,
        4 => U32,
        _ => throw new ArgumentOutOfRangeException(nameof(width), width, "Field widths are 1, 2 or 4 bytes."),
    };

    /// <summary>The field [start, start + width) that holds the byte at <paramref name="offset"/> of the segment.</summary>
    public (long Start, int Width) FieldAt(long offset)
    {
        int inRecord = (int)(offset % RecordSize);
        return (offset - _fieldStart[inRecord], _fieldWidth[inRecord]);
    }

    /// <summary>
    /// Reads a layout written as field widths in order, separated by spaces: <c>4</c> is one field of 4 bytes, <c>1x6</c>
    /// six 1-byte fields, <c>(2 1 1)x14</c> a group repeated 14 times. The record is the sum of all widths.
    /// </summary>
    public static FieldLayout Parse(string text)
    {
        int at = 0;
        var widths = ParseGroup(text, ref at);
        if (at != text.Length)
            throw new FormatException($"Field layout \"{text}\": unexpected '{text[at]}' at {at}.");
        if (widths.Count == 0 || widths.Any(w => w is < 1 or > byte.MaxValue))
            throw new FormatException($"Field layout \"{text}\": widths must be 1 to 255 bytes, and there must be one.");
        return new FieldLayout(widths.ToArray(), text);
    }

    private static List<int> ParseGroup(string text, ref int at)
    {
        var widths = new List<int>();
        while (at < text.Length && text[at] != ')')
        {
            if (text[at] == ' ')
            {
                at++;
                continue;
            }
            List<int> item;
            if (text[at] == '(')
            {
                at++;
                item = ParseGroup(text, ref at);
                if (at >= text.Length)
                    throw new FormatException($"Field layout \"{text}\": a '(' is not closed.");
                at++;
            }
            else
            {
                item = [ReadNumber(text, ref at)];
            }
            int repeat = 1;
            if (at < text.Length && text[at] == 'x')
            {
                at++;
                repeat = ReadNumber(text, ref at);
            }
            for (int i = 0; i < repeat; i++)
                widths.AddRange(item);
        }
        return widths;
    }

    private static int ReadNumber(string text, ref int at)
    {
        int start = at;
        while (at < text.Length && char.IsAsciiDigit(text[at]))
            at++;
        if (at == start)
            throw new FormatException($"Field layout \"{text}\": a number is expected at {start}.");
        return int.Parse(text.AsSpan(start, at - start), System.Globalization.CultureInfo.InvariantCulture);
    }
}
