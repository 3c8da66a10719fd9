using System.Text.Json.Serialization;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>How a check came out: passed, failed in a way that stops a mount, worth a look but not stopping one, or a fact to know.</summary>
internal enum Outcome { Pass, Fail, Warn, Info }

/// <summary>
/// One line of <c>archiveemu doctor</c>: what was checked, what was found and, when it is not fine, what to do. In JSON,
/// <c>ok</c> is false for a failure or a warning and <c>blocking</c> is true for a check whose failure stops a mount.
/// </summary>
internal sealed record DoctorCheck(
    [property: JsonPropertyName("name"), JsonPropertyOrder(0)] string Name,
    [property: JsonIgnore] Outcome Outcome,
    [property: JsonPropertyName("blocking"), JsonPropertyOrder(2)] bool Blocking,
    [property: JsonPropertyName("detail"), JsonPropertyOrder(3)] string Detail,
    [property: JsonPropertyName("fix"), JsonPropertyOrder(4)] string? Fix)
{
    [JsonPropertyName("ok")]
    [JsonPropertyOrder(1)]
    public bool Ok => Outcome is Outcome.Pass or Outcome.Info;

    /// <summary>Whether this check stops a mount: a blocking check that failed.</summary>
    [JsonIgnore]
    public bool Stops => Blocking && !Ok;

    public static DoctorCheck Passed(string name, string detail, bool blocking = true) => new(name, Outcome.Pass, blocking, detail, null);

    public static DoctorCheck Failed(string name, string detail, string fix, bool blocking = true) => new(name, Outcome.Fail, blocking, detail, fix);

    public static DoctorCheck Warning(string name, string detail, string fix) => new(name, Outcome.Warn, false, detail, fix);

    /// <param name="fix">What to do if the fact is not what the player wants (the launch option that starts archiveemu); null for none.</param>
    public static DoctorCheck Fact(string name, string detail, string? fix = null) => new(name, Outcome.Info, false, detail, fix);
}
