using System.Text.Json;
using System.Text.Json.Serialization;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>What <c>archiveemu doctor</c> found: every check in order, and whether a mount would work (no blocking check failed).</summary>
internal sealed record DoctorReport(
    [property: JsonPropertyName("checks")] IReadOnlyList<DoctorCheck> Checks)
{
    [JsonPropertyName("ok")]
    [JsonPropertyOrder(-1)]
    public bool Ok => !Checks.Any(c => c.Stops);

    /// <summary>One line per check, "MARK name: detail", then "  fix: …" under one that is not fine; marks in ASCII unless on a terminal.</summary>
    public void WriteText(TextWriter output, bool terminal)
    {
        int width = Checks.Max(c => c.Name.Length);
        foreach (var check in Checks)
        {
            output.WriteLine($"{Mark(check.Outcome, terminal)} {check.Name.PadRight(width)}  {check.Detail}");
            if (check.Fix is { } fix)
                output.WriteLine($"{new string(' ', Mark(check.Outcome, terminal).Length)} {"fix:".PadRight(width)}  {fix}");
        }
        output.WriteLine(Ok ? "a mount would work here" : $"a mount would fail here: {string.Join(", ", Checks.Where(c => c.Stops).Select(c => c.Name))}");
    }

    public void WriteJson(TextWriter output) => output.WriteLine(JsonSerializer.Serialize(this, DoctorJson.Relaxed.DoctorReport));

    private static string Mark(Outcome outcome, bool terminal) => (outcome, terminal) switch
    {
        (Outcome.Pass, true) => "✓",
        (Outcome.Fail, true) => "✗",
        (Outcome.Warn, true) => "!",
        (Outcome.Info, true) => "i",
        (Outcome.Pass, false) => "ok  ",
        (Outcome.Fail, false) => "FAIL",
        (Outcome.Warn, false) => "warn",
        _ => "info",
    };
}

/// <summary>The report's JSON, generated at build time (no reflection: the CLI is built ahead of time).</summary>
[JsonSerializable(typeof(DoctorReport))]
internal sealed partial class DoctorJson : JsonSerializerContext
{
    /// <summary>Indented, with paths and quotes written as they are (a ' stays a ', not \u0027).</summary>
    public static DoctorJson Relaxed { get; } = new(new JsonSerializerOptions
    {
        WriteIndented = true,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    });
}
