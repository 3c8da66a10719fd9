using System.Text.Json;
using System.Text.Json.Serialization;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Profiles;

/// <summary>
/// One saved profile, as its file holds it: <c>{"game", "mods", "reloaded", "reloadedDir", "options": {…}}</c> (issue 32).
/// Paths are absolute; every field is required, so a file missing one is refused rather than read half.
/// </summary>
internal sealed record Profile
{
    public required string Game { get; init; }
    public required string[] Mods { get; init; }
    public required bool Reloaded { get; init; }
    public required string? ReloadedDir { get; init; }
    /// <summary>The serving options it saves (merge, compress, ignoreCase, language, cache), as a command's request holds them.</summary>
    public required ServingOptions Options { get; init; }
}

/// <summary>Source-generated (no reflection, for NativeAOT): camelCase names, indented with \n on every system, an unknown field refused.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, NewLine = "\n",
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow, RespectNullableAnnotations = true,
    RespectRequiredConstructorParameters = true, AllowTrailingCommas = false, ReadCommentHandling = JsonCommentHandling.Disallow)]
[JsonSerializable(typeof(Profile))]
internal sealed partial class ProfileJson : JsonSerializerContext;
