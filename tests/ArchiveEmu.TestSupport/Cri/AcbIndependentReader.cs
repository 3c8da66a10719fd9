using System.Text.Json;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// An ACB as the independent script reads it (<see cref="CriIndependentScript"/>, "acb"): its Header table at offset 0
/// and, where StreamAwbAfs2Header or StreamAwbHash holds a nested @UTF table (plain or masked), that table too. Many files
/// are read in one Python start-up (<see cref="TryReadMany"/>), so the fuzzer can check thousands of builds.
/// </summary>
public static class AcbIndependentReader
{
    /// <summary>The Header table and the nested tables by column (absent where the value is raw bytes or empty).</summary>
    public sealed record Acb(UtfIndependentReader.Table Header, Dictionary<string, UtfIndependentReader.Table> Nested);

    /// <summary>The ACB, or the reader's one-line reason for rejecting it.</summary>
    public sealed record Result(Acb? Acb, string? Rejection);

    /// <summary>Reads the ACB; a rejection fails the test with the reader's message.</summary>
    public static Acb Read(string path)
    {
        var result = TryReadMany([path])[0];
        Assert.That(result.Rejection, Is.Null, $"independent ACB reader rejected {path}");
        return result.Acb!;
    }

    /// <summary>Reads many ACBs in one Python start-up: per file what it holds, or its rejection.</summary>
    public static Result[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(CriIndependentScript.Source, paths.Select(p => new[] { "acb", p }).ToArray()).Select(ToResult).ToArray();

    private static Result ToResult(ToolResult result)
    {
        if (result.ExitCode != 0)
            return new Result(null, CriJson.Rejection(result));
        var json = JsonSerializer.Deserialize<JsonElement>(result.StdOut);
        var header = json.Deserialize<UtfIndependentReader.Table>(CriJson.Options)!;
        var nested = json.GetProperty("nested").EnumerateObject()
            .ToDictionary(p => p.Name, p => p.Value.Deserialize<UtfIndependentReader.Table>(CriJson.Options)!, StringComparer.Ordinal);
        return new Result(new Acb(header, nested), null);
    }
}
