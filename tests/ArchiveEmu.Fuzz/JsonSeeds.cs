using System.Text;

namespace ArchiveEmu.Fuzz;

/// <summary>
/// One valid JSON file as the variants a player's disk holds (issue 48: bytes, encodings, BOMs, nesting, sizes): UTF-8 with and
/// without a BOM, UTF-16 LE/BE and UTF-32 LE with theirs, a name saved as Latin-1 (an invalid UTF-8 byte), nesting deeper than a
/// reader allows, nulls where lists hold strings, and the empty file; afl++ and the seeded pass start from all of them.
/// </summary>
internal static class JsonSeeds
{
    /// <param name="json">A valid file, UTF-8 text without a BOM.</param>
    /// <param name="listField">A field holding a list of strings, to put nulls and deep nesting in.</param>
    public static IEnumerable<(string Name, byte[] Bytes)> Variants(string label, string json, string listField)
    {
        yield return ($"{label}, UTF-8", Encoding.UTF8.GetBytes(json));
        yield return ($"{label}, UTF-8 BOM", [.. Encoding.UTF8.GetPreamble(), .. Encoding.UTF8.GetBytes(json)]);
        foreach (var encoding in new Encoding[] { Encoding.Unicode, Encoding.BigEndianUnicode, Encoding.UTF32 })
            yield return ($"{label}, {encoding.WebName} BOM", [.. encoding.GetPreamble(), .. encoding.GetBytes(json)]);
        // "Café" with é as the single byte 0xE9, as a Latin-1 editor saves it.
        yield return ($"{label}, Latin-1 name", Encoding.Latin1.GetBytes(json.Replace("\"" + listField + "\"", "\"Caf\u00e9\": \"Caf\u00e9\", \"" + listField + "\"")));
        yield return ($"{label}, nulls in a list", Encoding.UTF8.GetBytes(json.Replace("\"" + listField + "\": [", "\"" + listField + "\": [null, 1, {}, [], ")));
        yield return ($"{label}, deep nesting", Encoding.UTF8.GetBytes(json.Replace("\"" + listField + "\": [", "\"" + listField + "\": [" + new string('[', 70) + new string(']', 70) + ", ")));
        yield return ($"{label}, comments and a trailing comma", Encoding.UTF8.GetBytes("// saved by hand\n" + json.Replace("\"" + listField + "\": [", "\"" + listField + "\": [ /* none */ ").TrimEnd().TrimEnd('}') + ",}"));
        yield return ("empty file", []);
        yield return ("a list, not an object", Encoding.UTF8.GetBytes("[\"x\", null]"));
    }
}
