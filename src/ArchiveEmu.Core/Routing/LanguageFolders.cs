using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// A mod's <c>FEmulator/L10N/&lt;lang&gt;/&lt;route&gt;</c> folders, by the Localisation Framework's rules (docs/DESIGN.md, "Language folders";
/// AnimatedSwine37/Reloaded.Universal.Localisation.Framework, <c>LocalisationBuilderFactory.cs</c>, <c>Language.cs</c>): when the game's
/// language is <c>&lt;lang&gt;</c>, a file there replaces the bytes of every file of the same mod whose full path contains
/// <c>&lt;route&gt;</c>, letter case aside (FEF's <c>Route.Matches</c>). The mod's files stay where its layout puts them; only their bytes change.
/// </summary>
internal static class LanguageFolders
{
    public const string Folder = "L10N";

    /// <summary>The Localisation Framework's language ids (<c>Language.Languages</c>).</summary>
    public static readonly string[] Ids = ["en", "de", "es", "fr", "it", "ja", "ko", "pl", "pt", "ru", "tr", "zh-Hant", "zh-Hans"];

    /// <summary>
    /// Reads the mod's language folders: the replacements for <paramref name="language"/> go into <paramref name="replaced"/> (the mod's
    /// file → the language's file, with its folder); what is not applied, and why, into <paramref name="notApplied"/>.
    /// </summary>
    /// <param name="modFiles">The mod's files its layout folders apply (full paths), the ones a language file may replace.</param>
    /// <returns>The language folders applied, one line each.</returns>
    public static IReadOnlyList<string> Read(string modRoot, string modName, string l10n, string language, IReadOnlyList<string> modFiles,
        Dictionary<string, (string File, string Rule)> replaced, List<NotApplied> notApplied, List<string> warnings)
    {
        var applied = new List<string>();
        var loose = new List<string>();
        foreach (var (path, isFolder) in GamePaths.EntriesInside(modRoot, l10n))
        {
            string lang = Path.GetFileName(path), folder = InGameCode.Relative(modRoot, path);
            if (!isFolder)
            {
                loose.Add(lang);
                continue;
            }
            var files = GamePaths.FilesInside(modRoot, path).Order(StringComparer.Ordinal).ToArray();
            var names = files.Select(f => InGameCode.Relative(path, f)).ToArray();
            if (!Ids.Contains(lang, StringComparer.OrdinalIgnoreCase))
            {
                Warn(new NotApplied(modName, folder, names, $"{lang} is no language id of the Localisation Framework ({string.Join(", ", Ids)})"));
                continue;
            }
            if (!lang.Equals(language, StringComparison.OrdinalIgnoreCase))
            {
                notApplied.Add(new NotApplied(modName, folder, names, $"language folder for {lang}; the game's language is {language}", Quiet: true));
                continue;
            }
            if (Ids.First(id => id.Equals(lang, StringComparison.OrdinalIgnoreCase)) is var id && id != lang)
                warnings.Add($"mod folder {path}: applied for {language}, but the Localisation Framework in the game finds it only spelled {id} "
                    + "(it knows the id letter case aside, then looks the folder up as spelled)");
            var unmatched = new List<string>();
            int used = 0;
            foreach (var (file, route) in files.Zip(names))
            {
                var targets = modFiles.Where(f => f.Replace(Path.DirectorySeparatorChar, '/').Contains(route, StringComparison.OrdinalIgnoreCase)).ToArray();
                if (targets.Length == 0)
                    unmatched.Add(route);
                foreach (var target in targets) // the longest route wins a file two routes reach
                {
                    if (!replaced.TryGetValue(target, out var earlier) || earlier.Rule.Length < folder.Length + 1 + route.Length)
                        replaced[target] = (file, $"{folder}/{route}");
                }
                used += targets.Length > 0 ? 1 : 0;
            }
            if (unmatched.Count > 0)
            {
                Warn(new NotApplied(modName, folder, unmatched,
                    "matches none of the mod's own files: the Localisation Framework replaces only files of the same mod whose path contains the route"));
            }
            if (used > 0)
                applied.Add($"{folder}: {used} file(s)");
        }
        if (loose.Count > 0)
        {
            Warn(new NotApplied(modName, InGameCode.Relative(modRoot, l10n), loose,
                "the Localisation Framework reads files in a language folder (FEmulator/L10N/<language id>/<route>)"));
        }
        return applied;

        void Warn(NotApplied line)
        {
            notApplied.Add(line);
            warnings.Add(line.Line);
        }
    }

    /// <summary>The routes with every input from a replaced mod file read from its language file instead; the rule names both.</summary>
    public static ArchiveRoute Localise(ArchiveRoute route, IReadOnlyDictionary<string, (string File, string Rule)> replaced)
    {
        if (replaced.Count == 0)
            return route;
        var changes = route.Patch.Changes.Select(c => c.Input?.Path is { } path && replaced.TryGetValue(path, out var to)
            ? c with { Input = EntryInput.FromFile(to.File), Rule = $"{c.Rule} + {to.Rule}" } : c).ToArray();
        var nested = route.Nested.Select(n => n with { Route = Localise(n.Route, replaced) }).ToArray();
        return route with { Patch = new ArchivePatch(changes), Nested = nested };
    }

    public static FileOverride Localise(FileOverride file, IReadOnlyDictionary<string, (string File, string Rule)> replaced) =>
        replaced.TryGetValue(file.SourcePath, out var to) ? file with { SourcePath = Path.GetFullPath(to.File), Rule = $"{file.Rule} + {to.Rule}" } : file;
}
