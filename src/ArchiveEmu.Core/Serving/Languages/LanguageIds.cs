namespace ArchiveEmu.Core.Serving.Languages;

/// <summary>
/// The Localisation Framework's language ids (its <c>Language.Languages</c>: the folder names under <c>FEmulator/L10N/</c>)
/// and the names Steam gives those languages. The framework refuses a folder whose id is not in its list, so this list is
/// what ArchiveEmu accepts too (docs/DESIGN.md, "Language").
/// </summary>
internal static class LanguageIds
{
    /// <summary>The default when nothing chooses: the framework's first language.</summary>
    public const string Default = "en";

    // The framework's own names (which its Steam provider matches Steam's API name against, ignoring case) first, then the
    // Steam API names that differ from them: the framework's provider finds no language for those, ArchiveEmu reads their meaning.
    private static readonly (string Id, string[] SteamNames)[] Table =
    [
        ("en", ["english"]),
        ("de", ["german"]),
        ("es", ["spanish", "latam"]),
        ("fr", ["french"]),
        ("it", ["italian"]),
        ("ja", ["japanese"]),
        ("ko", ["korean", "koreana"]),
        ("pl", ["polish"]),
        ("pt", ["portuguese", "brazilian"]),
        ("ru", ["russian"]),
        ("tr", ["turkish"]),
        ("zh-Hant", ["traditional chinese", "tchinese"]),
        ("zh-Hans", ["simplified chinese", "schinese"]),
    ];

    /// <summary>Every id, spelled as the framework spells it.</summary>
    public static IReadOnlyList<string> Known { get; } = Table.Select(t => t.Id).ToArray();

    /// <summary>The framework's spelling of <paramref name="id"/> (ids compare ignoring case: <c>zh-hans</c> is <c>zh-Hans</c>), or null when unknown.</summary>
    public static string? Canonical(string id) => Known.FirstOrDefault(k => k.Equals(id, StringComparison.OrdinalIgnoreCase));

    /// <summary>The id of a language as Steam names it (<c>spanish</c>, <c>koreana</c>, <c>schinese</c>), or null for one the framework has no id for.</summary>
    public static string? FromSteam(string steamName) =>
        Table.FirstOrDefault(t => t.SteamNames.Contains(steamName.Trim(), StringComparer.OrdinalIgnoreCase)).Id;

    /// <summary>The one line an unknown id gets, in the shape of every wrong word (the CLI's <c>CliOptions.Takes</c>): where, every id, what was given.</summary>
    public static string Unknown(string given, string where) =>
        $"{where} takes {string.Join(", ", Known.Take(Known.Count - 1))} or {Known[^1]}, not '{given}'";
}
