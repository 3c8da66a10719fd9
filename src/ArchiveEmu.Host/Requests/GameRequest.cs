using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Serving;

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

    /// <summary>The folders of the mods loaded with <see cref="Mods"/> that serve no file (a Reloaded-II setup's code-only mods), for the merges that need one loaded.</summary>
    public IReadOnlyList<string> OtherLoadedMods { get; init; } = [];

    /// <summary>What names <see cref="ServingOptions.Language"/> when it is asked, for the line saying which language is served.</summary>
    public string LanguageBy { get; init; } = "--language";

    /// <summary>
    /// How Core opens this game, the one place the serving options become a <see cref="GameSetup"/> for every command and the
    /// mount: the language chosen (asked, else Steam's record for the game folder as named, else en; what is odd goes to
    /// <paramref name="warn"/>), the cache, content keys and the codec. A command adds what it alone sets (warnings about what
    /// is served, a handle pool, storing the plan); merge and letter case are the mount's and build's own uses.
    /// </summary>
    internal GameSetup Setup(MergedFileCache? cache, Action<string> warn) => new(Game, Mods)
    {
        Language = SteamLanguage.Choose(Serving.Language, LanguageBy, Game, warn),
        Cache = cache,
        VerifyContent = Serving.VerifyContent,
        Compression = Serving.CompressionChoice,
        OtherLoadedMods = OtherLoadedMods,
    };
}
