using System.Globalization;
using System.Text;
using System.Xml;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Writes one plain SVG 1.1 document of a fixed pixel size: elements and text escaped by <see cref="XmlWriter"/>,
/// numbers in the invariant culture, one generic font, no scripts, styles or external references.
/// </summary>
internal sealed class SvgCanvas : IDisposable
{
    private const string Namespace = "http://www.w3.org/2000/svg";

    // A sans-serif glyph's mean width in ems, rounded up: what labels are fitted with, having no font to measure.
    private const double GlyphWidth = 0.6;

    private readonly XmlWriter _xml;

    /// <summary>Starts the document: <paramref name="width"/> × <paramref name="height"/> px with a matching viewBox.</summary>
    public SvgCanvas(Stream stream, int width, int height, string title, string description)
    {
        _xml = XmlWriter.Create(stream, new XmlWriterSettings
        {
            Encoding = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false),
            Indent = true,
            NewLineChars = "\n", // the same bytes on every platform
            CloseOutput = false,
        });
        _xml.WriteStartDocument();
        Open("svg", ("version", "1.1"), ("width", width), ("height", height), ("viewBox", $"0 0 {width} {height}"),
            ("font-family", "sans-serif"));
        Element("title", title);
        Element("desc", description);
        Empty("rect", ("width", width), ("height", height), ("fill", "#ffffff")); // renderers and viewers differ on transparency
    }

    /// <summary>Opens an element; attributes whose value is null are left out.</summary>
    public void Open(string name, params (string Name, object? Value)[] attributes)
    {
        _xml.WriteStartElement(name, Namespace);
        foreach (var (attribute, value) in attributes)
            if (value is not null)
                _xml.WriteAttributeString(attribute, Format(value));
    }

    public void Close() => _xml.WriteEndElement();

    public void Empty(string name, params (string Name, object? Value)[] attributes)
    {
        Open(name, attributes);
        Close();
    }

    /// <summary>An element holding only text (a tooltip's <c>title</c>, a <c>desc</c>).</summary>
    public void Element(string name, string text)
    {
        _xml.WriteStartElement(name, Namespace);
        _xml.WriteString(Printable(text));
        _xml.WriteEndElement();
    }

    /// <summary>A line of text at (<paramref name="x"/>, <paramref name="y"/>) of <paramref name="size"/> px.</summary>
    public void Text(double x, double y, double size, string text, params (string Name, object? Value)[] attributes)
    {
        Open("text", [("x", x), ("y", y), ("font-size", size), .. attributes]);
        _xml.WriteString(Printable(text));
        Close();
    }

    /// <summary>Whether <paramref name="text"/> at <paramref name="size"/> px fits <paramref name="room"/> px.</summary>
    public static bool Fits(string text, double room, double size) => text.Length * size * GlyphWidth <= room;

    /// <summary><paramref name="text"/>, cut with '…' where it would not fit <paramref name="room"/> px.</summary>
    public static string Fit(string text, double room, double size)
    {
        if (Fits(text, room, size))
            return text;
        int keep = Math.Max(0, (int)(room / (size * GlyphWidth)) - 1);
        return text[..Math.Min(keep, text.Length)] + "…";
    }

    /// <summary>A number written back exactly (round-trip), for figures a reader may want to compare.</summary>
    public static string Exact(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    public void Dispose()
    {
        _xml.WriteEndElement();
        _xml.WriteEndDocument();
        _xml.Dispose();
    }

    // Coordinates to a thousandth of a pixel; text stripped of what XML cannot hold.
    private static string Format(object value) => value switch
    {
        double d => Math.Round(d, 3).ToString("0.###", CultureInfo.InvariantCulture),
        int i => i.ToString(CultureInfo.InvariantCulture),
        string s => Printable(s),
        _ => Printable(Convert.ToString(value, CultureInfo.InvariantCulture) ?? ""),
    };

    // A CPU or device name read from /proc may hold control characters, which XML 1.0 forbids: they would fail the write.
    private static string Printable(string text)
    {
        var printable = new StringBuilder(text.Length);
        for (int i = 0; i < text.Length; i++)
        {
            if (i + 1 < text.Length && XmlConvert.IsXmlSurrogatePair(text[i + 1], text[i]))
                printable.Append(text, i++, 2);
            else
                printable.Append(XmlConvert.IsXmlChar(text[i]) ? text[i] : '\uFFFD');
        }
        return printable.ToString();
    }
}
