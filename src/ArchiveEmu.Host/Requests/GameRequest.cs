using ArchiveEmu.Core.Machine.ReloadedII;

namespace ArchiveEmu.Host.Requests;

/// <summary>
/// One modded game as asked for, typed from the command line to what serves it: the game folder, the mod folders in priority
/// order (lowest first, each once; a Reloaded-II setup's first), the Reloaded-II setup they came from, and how to serve it.
/// The CLI builds it once per command (its options over a profile's, <see cref="ServingOptions.Choose"/>); <c>build</c>,
/// <c>cat</c>, <c>ls</c>, <c>doctor</c> and the mount (<see cref="MountRequest"/>) consume it.
/// </summary>
internal sealed record GameRequest(string Game, string[] Mods, ServingOptions Serving)
{
    /// <summary>The Reloaded-II setup the mods came from (<c>--reloaded</c>, <c>--reloaded-dir</c>), for the report.</summary>
    public ReloadedSetup? Reloaded { get; init; }

    /// <summary>What names <see cref="ServingOptions.Language"/> when it is asked, for the line saying which language is served.</summary>
    public string LanguageBy { get; init; } = "--language";
}
