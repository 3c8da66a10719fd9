using System.Text.Json;
using System.Text.RegularExpressions;

namespace ArchiveEmu.Cli.Profiles;

/// <summary>A <see cref="JsonException"/> in a player's words: where in the file (JSON path, line) and what, without .NET type names.</summary>
internal static partial class JsonProblem
{
    public static string Describe(JsonException e)
    {
        var where = e.Path is { Length: > 1 } path ? $"at {path}" : "";
        var line = e.LineNumber is { } number ? $"line {number + 1}" : "";
        var place = string.Join(", ", new[] { where, line }.Where(s => s.Length > 0));
        var what = e.Message;
        if (UnmappedProperty().Match(what) is { Success: true } unknown)
            what = $"unknown field '{unknown.Groups[1].Value}'";
        else if (MissingProperties().Match(what) is { Success: true } missing)
            what = $"missing field(s) {missing.Groups[1].Value}";
        else if (what.Contains("could not be converted", StringComparison.Ordinal) || what.Contains("null value", StringComparison.Ordinal))
            what = "a value of the wrong kind (a text, true/false, a list or null where another is expected)";
        else
            what = TypeName().Replace(what.Split(" Path: ")[0], "").TrimEnd('.', ' ');
        return place.Length > 0 ? $"{what} ({place})" : what;
    }

    [GeneratedRegex("The JSON property '([^']*)' could not be mapped")]
    private static partial Regex UnmappedProperty();

    [GeneratedRegex("missing required properties including: (.*?)\\.?( Path:|$)")]
    private static partial Regex MissingProperties();

    [GeneratedRegex(@"\s*'?ArchiveEmu\.[A-Za-z.]+'?")]
    private static partial Regex TypeName();
}
