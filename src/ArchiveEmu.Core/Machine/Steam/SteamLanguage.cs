using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Core.Machine.Steam;

/// <summary>
/// The game's language as the player's machine has it, for the CLI and the host (docs/DESIGN.md, "Language"): the one asked
/// for; else the one Steam records for the game (<c>UserConfig</c>'s <c>language</c> in its appmanifest, which is what Steam's
/// <c>GetCurrentGameLanguage</c> returns to the framework's Steam provider inside the game); else <c>en</c>.
/// </summary>
internal static class SteamLanguage
{
    /// <summary>
    /// The language for <paramref name="gameFolder"/>: <paramref name="requested"/> when given (<see cref="GameLanguage.Requested"/>),
    /// else Steam's record.
    /// </summary>
    public static LanguageChoice Choose(string? requested, string requestedBy, string gameFolder, Action<string>? warn) =>
        GameLanguage.Requested(requested, requestedBy) ?? Of(gameFolder, warn);

    /// <summary>The language Steam records for the game, or <c>en</c> saying why not; a manifest that cannot be read is warned about.</summary>
    public static LanguageChoice Of(string gameFolder, Action<string>? warn)
    {
        var libraries = SteamAppManifest.Libraries(gameFolder);
        if (libraries.Count == 0)
            return GameLanguage.Default("the game is not in a Steam library");
        var unreadable = new List<string>();
        if (SteamAppManifest.OfGame(gameFolder, unreadable) is { } manifest)
            return FromManifest(manifest, warn);
        // Only when no manifest names the game: a garbled one may be its own.
        foreach (var line in unreadable)
            warn?.Invoke(line);
        var (library, name) = libraries[0];
        return GameLanguage.Default(unreadable.Count > 0
            ? $"no readable Steam manifest in {library} names the installdir \"{name}\""
            : $"no Steam manifest in {library} names the installdir \"{name}\"");
    }

    private static LanguageChoice FromManifest(SteamAppManifest manifest, Action<string>? warn)
    {
        // UserConfig is the player's choice; MountedConfig the language installed, which lags it while Steam downloads.
        foreach (var block in new[] { "UserConfig", "MountedConfig" })
        {
            if (manifest.AppState.ValueAt(block, "language") is not { Length: > 0 } name)
                continue;
            var source = $"{manifest.Path}, {block} language \"{name}\"";
            if (LanguageIds.FromSteam(name) is { } id)
                return new LanguageChoice(id, $"Steam: {source}");
            warn?.Invoke($"{manifest.Path}: Steam's language \"{name}\" has no Localisation Framework id; language folders use {LanguageIds.Default}");
            return GameLanguage.Default($"Steam: {source} has no Localisation Framework id");
        }
        return GameLanguage.Default($"Steam: {manifest.Path} records no language");
    }
}
