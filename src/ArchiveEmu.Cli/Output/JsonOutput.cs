using System.Text.Json;
using System.Text.Json.Nodes;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// How every <c>--json</c> output is written: indented, nulls kept, property names as written (snake_case). Documents are
/// built as <see cref="JsonNode"/> trees, not serialized from anonymous types: no reflection, so the NativeAOT build writes them.
/// </summary>
internal static class JsonOutput
{
    public static JsonSerializerOptions Options { get; } = new() { WriteIndented = true };

    /// <summary>The document on one line of <paramref name="o"/> (then a line end), as the reflection serializer wrote it.</summary>
    public static void Write(TextWriter o, JsonNode document) => o.WriteLine(document.ToJsonString(Options));

    /// <summary>An array of <paramref name="items"/>, each made a node by <paramref name="each"/>.</summary>
    public static JsonArray Array<T>(IEnumerable<T> items, Func<T, JsonNode?> each) => new(items.Select(each).ToArray());

    public static JsonArray Strings(IEnumerable<string> items) => Array(items, s => (JsonNode?)s);

    public static JsonArray Numbers(IEnumerable<double> items) => Array(items, d => (JsonNode?)d);
}
