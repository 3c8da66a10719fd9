using System.Text.Json;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// Re-reads a CPK with a Python reader written from the public format descriptions (<see cref="CriIndependentScript"/>).
/// Fails on any structural problem (packet magics and sizes, a malformed or unmaskable @UTF table, Files or the
/// Enabled*Size sums not matching the table of contents, an entry outside the content or the file, off the CPK's
/// alignment, overlapping a table or another entry, FileSize above ExtractSize, a CRILAYLA stream that does not
/// decode to ExtractSize) and returns the header fields and every entry with the sha256 of its stored and decoded bytes.
/// </summary>
public static class CpkIndependentReader
{
    /// <summary>One entry: Offset is absolute in the file, FileOffset the column as stored; LocalDir from the ETOC.</summary>
    public sealed record Entry(
        string DirName, string FileName, long Id, long Offset, long FileOffset, long FileSize, long ExtractSize,
        string? UserString, string? LocalDir, bool Compressed, string StoredSha256, string ContentSha256)
    {
        /// <summary>DirName/FileName, or FileName alone at the root; for an ID-only CPK the empty string.</summary>
        public string Path => DirName.Length == 0 ? FileName : DirName + "/" + FileName;
    }

    /// <summary>
    /// Kind is "named" (TOC) or "id" (ITOC only); Masked when any table was XOR-masked; Header holds every column of
    /// the CPK header row (null where the column stores no value; data as {size, sha256, hex}).
    /// </summary>
    public sealed record Archive(
        string Kind, bool Masked, long Alignment, long ContentOffset, long TocOffset, long ItocOffset, long EtocOffset,
        Dictionary<string, JsonElement> Header, Entry[] Entries)
    {
        /// <summary>A header column as a number (0 where it stores no value).</summary>
        public long HeaderNumber(string column) =>
            Header.TryGetValue(column, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetInt64() : 0;
    }

    /// <summary>The archive, or the reader's one-line reason for rejecting it.</summary>
    public sealed record Result(Archive? Archive, string? Rejection);

    /// <summary>Reads the CPK; a rejection fails the test with the reader's message.</summary>
    public static Archive Read(string path)
    {
        var result = TryRead(path);
        Assert.That(result.Rejection, Is.Null, $"independent CPK reader rejected {path}");
        return result.Archive!;
    }

    /// <summary>Reads the CPK, returning the rejection instead of failing.</summary>
    public static Result TryRead(string path) => ToResult(ExternalTool.Python(CriIndependentScript.Source, "cpk", path));

    /// <summary>Reads many files in one Python start-up: per file its entries, or its rejection.</summary>
    public static Result[] TryReadMany(IReadOnlyList<string> paths) =>
        ExternalTool.PythonEach(CriIndependentScript.Source, paths.Select(p => new[] { "cpk", p }).ToArray())
            .Select(ToResult).ToArray();

    private static Result ToResult(ToolResult result) =>
        result.ExitCode == 0
            ? new Result(JsonSerializer.Deserialize<Archive>(result.StdOut, CriJson.Options)!, null)
            : new Result(null, CriJson.Rejection(result));
}

/// <summary>How the C# side reads the script's output.</summary>
internal static class CriJson
{
    public static readonly JsonSerializerOptions Options = new() { PropertyNameCaseInsensitive = true };

    // The script's own "REJECTED: ..." line, or the whole output when Python itself failed.
    public static string Rejection(ToolResult result)
    {
        var line = result.StdOut.Split('\n').FirstOrDefault(l => l.StartsWith("REJECTED: ", StringComparison.Ordinal));
        return line is null ? "reader failed without a verdict: " + result : line["REJECTED: ".Length..].Trim();
    }
}
