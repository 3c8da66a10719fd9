using ArchiveEmu.Core.Steam;

namespace ArchiveEmu.Core.Serving.Languages;

/// <summary>The game's language as a Localisation Framework id, and where that choice came from (for <c>build</c>'s report).</summary>
/// <param name="Id">The framework's id, spelled as it spells it (<c>en</c>, <c>zh-Hans</c>).</param>
/// <param name="Source">Why: the setting that chose it, Steam's record that names it, or why the default applies.</param>
internal sealed record LanguageChoice(string Id, string Source)
{
    public override string ToString() => $"{Id} ({Source})";
}

/// <summary>
/// Chooses the language whose <c>FEmulator/L10N/&lt;id&gt;/</c> folders apply (docs/DESIGN.md, "Language"): the one asked for;
/// else the one Steam records for the game (<c>UserConfig</c>'s <c>language</c> in its appmanifest, which is what Steam's
/// <c>GetCurrentGameLanguage</c> returns to the framework's Steam provider inside the game); else <c>en</c>.
/// </summary>
internal static class GameLanguage
{
    /// <summary>
    /// The language for <paramref name="gameFolder"/>: <paramref name="requested"/> when given (an unknown id is an
    /// <see cref="ArgumentException"/> naming <paramref name="requestedBy"/> and listing the ids), else Steam's record.
    /// </summary>
    public static LanguageChoice Choose(string? requested, string requestedBy, string gameFolder, Action<string>? warn)
    {
        if (string.IsNullOrWhiteSpace(requested))
            return FromSteam(gameFolder, warn);
        return new LanguageChoice(LanguageIds.Canonical(requested) ?? throw new ArgumentException(LanguageIds.Unknown(requested, requestedBy)), requestedBy);
    }

    /// <summary>The language Steam records for the game, or <c>en</c> saying why not; a manifest that cannot be read is warned about.</summary>
    public static LanguageChoice FromSteam(string gameFolder, Action<string>? warn)
    {
        var libraries = SteamAppManifest.Libraries(gameFolder);
        if (libraries.Count == 0)
            return Default("the game is not in a Steam library");
        var unreadable = new List<string>();
        foreach (var (steamapps, installDir) in libraries)
            if (SteamAppManifest.Find(steamapps, installDir, unreadable) is { } manifest)
                return FromManifest(manifest, warn);
        // Only when no manifest names the game: a garbled one may be its own.
        foreach (var line in unreadable)
            warn?.Invoke(line);
        var (library, name) = libraries[0];
        return Default(unreadable.Count > 0
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
            return Default($"Steam: {source} has no Localisation Framework id");
        }
        return Default($"Steam: {manifest.Path} records no language");
    }

    private static LanguageChoice Default(string why) => new(LanguageIds.Default, $"default: {why}");
}
