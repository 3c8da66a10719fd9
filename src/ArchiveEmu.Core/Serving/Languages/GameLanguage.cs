namespace ArchiveEmu.Core.Serving.Languages;

/// <summary>The game's language as a Localisation Framework id, and where that choice came from (for <c>build</c>'s report).</summary>
/// <param name="Id">The framework's id, spelled as it spells it (<c>en</c>, <c>zh-Hans</c>).</param>
/// <param name="Source">Why: the setting that chose it, Steam's record that names it, or why the default applies.</param>
internal sealed record LanguageChoice(string Id, string Source)
{
    public override string ToString() => $"{Id} ({Source})";
}

/// <summary>
/// The language whose <c>FEmulator/L10N/&lt;id&gt;/</c> folders apply (docs/DESIGN.md, "Language"), as the library knows it: the one
/// asked for, else <c>en</c> saying why. The library never looks at the machine; the CLI and the host fall back to the language
/// Steam records for the game (<c>Machine/Steam/SteamLanguage</c>) and pass it in.
/// </summary>
internal static class GameLanguage
{
    /// <summary>
    /// <paramref name="requested"/> in the framework's spelling, chosen by <paramref name="requestedBy"/>; null when nothing was asked.
    /// An unknown id is an <see cref="ArgumentException"/> naming <paramref name="requestedBy"/> and listing the ids.
    /// </summary>
    public static LanguageChoice? Requested(string? requested, string requestedBy) => string.IsNullOrWhiteSpace(requested) ? null
        : new LanguageChoice(LanguageIds.Canonical(requested) ?? throw new ArgumentException(LanguageIds.Unknown(requested, requestedBy)), requestedBy);

    /// <summary><c>en</c>, saying <paramref name="why"/> it applies.</summary>
    public static LanguageChoice Default(string why) => new(LanguageIds.Default, $"default: {why}");
}
