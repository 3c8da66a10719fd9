using System.Text.Json;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// The independent script's @UTF reader on its own (for ACB and other @UTF files): one table at an offset of a file,
/// unmasked when masked, every offset checked; returns its name, columns and rows (values as JSON: numbers, strings,
/// null where the column stores no value, data as {size, sha256, hex}).
/// </summary>
public static class UtfIndependentReader
{
    /// <summary>A column: Type is the flag's low nibble, Storage "zero", "constant" or "perrow".</summary>
    public sealed record Column(string Name, int Type, string Storage);

    /// <summary>A table: Size counts from the "@UTF" magic to the end the header gives.</summary>
    public sealed record Table(string Name, bool Masked, long Size, Column[] Columns, Dictionary<string, JsonElement>[] Rows);

    /// <summary>The table, or the reader's one-line reason for rejecting it.</summary>
    public sealed record Result(Table? Table, string? Rejection);

    /// <summary>Reads the table at <paramref name="offset"/>; a rejection fails the test with the reader's message.</summary>
    public static Table Read(string path, long offset = 0)
    {
        var result = TryRead(path, offset);
        Assert.That(result.Rejection, Is.Null, $"independent @UTF reader rejected {path} at 0x{offset:x}");
        return result.Table!;
    }

    /// <summary>Reads the table at <paramref name="offset"/>, returning the rejection instead of failing.</summary>
    public static Result TryRead(string path, long offset = 0) =>
        ToResult(ExternalTool.Python(CriIndependentScript.Source, "utf", path, offset.ToString(System.Globalization.CultureInfo.InvariantCulture)));

    /// <summary>Reads the table at offset 0 of many files in one Python start-up: per file its table, or its rejection.</summary>
    public static Result[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(CriIndependentScript.Source, paths.Select(p => new[] { "utf", p, "0" }).ToArray()).Select(ToResult).ToArray();

    private static Result ToResult(ToolResult result) =>
        result.ExitCode == 0
            ? new Result(JsonSerializer.Deserialize<Table>(result.StdOut, CriJson.Options)!, null)
            : new Result(null, CriJson.Rejection(result));
}
