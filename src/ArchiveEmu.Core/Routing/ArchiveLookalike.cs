using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// A mod folder that looks meant for an archive but matches no game path (docs/DESIGN.md, "Letter case"): its files
/// become new files nobody reads, so the plan warns, naming the closest game path. It looks meant for an archive when
/// its name ends in an extension a format registers (<see cref="IArchiveFormat.Extensions"/>), or when it holds files
/// and nothing else, all index-named (<c>3.dds</c>, <c>12_foo.adx</c>), or when its name is a mistyped archive's beside it
/// (<see cref="MistypesAnArchive"/>).
/// </summary>
/// <param name="gameRoot">The game folder.</param>
/// <param name="namesIn">The game's names in a game folder (relative, "" for the root); null lists the folder each time. A walk
/// passes the listing it already keeps (<see cref="GameSpelling.GameNames"/>), so no game folder is listed twice.</param>
internal sealed class ArchiveLookalike(string gameRoot, Func<string, IEnumerable<string>>? namesIn = null)
{
    private static readonly HashSet<string> ArchiveExtensions =
        ArchiveFormats.All.SelectMany(f => f.Extensions).ToHashSet(StringComparer.OrdinalIgnoreCase);

    private string[]? _gameFiles; // listed once, and only when a warning needs them

    public static bool LooksLikeArchive(string name, IReadOnlyList<(string Path, bool IsFolder)> entries) =>
        ArchiveExtensions.Contains(Path.GetExtension(name))
        || (entries.Count > 0 && entries.All(e => !e.IsFolder && EntryFileName.IsIndexName(Path.GetFileName(e.Path))));

    /// <summary>
    /// Whether <paramref name="relative"/>, a mod folder the game lacks in a game folder it has, is a few letters from an
    /// archive in that folder (<c>CPK/EN.CKP</c> beside <c>CPK/EN.CPK</c>): at most a third of the name's letters apart (at
    /// least one), as <see cref="ReloadedModLayout"/> judges a misspelled layout folder. Only that game folder's names are
    /// looked at: a mod's new folders must not cost a walk of the whole game.
    /// </summary>
    public bool MistypesAnArchive(string relative)
    {
        int slash = relative.LastIndexOf('/');
        string name = relative[(slash + 1)..];
        string parent = slash < 0 ? "" : relative[..slash];
        return (namesIn ?? ListFiles)(parent).Any(file => ArchiveExtensions.Contains(Path.GetExtension(file))
            && EditDistance.IgnoringCase(file, name) <= Math.Max(1, name.Length / 3));
    }

    private IEnumerable<string> ListFiles(string parent)
    {
        var folder = GamePaths.Full(gameRoot, parent);
        try
        {
            return Directory.Exists(folder) ? Directory.GetFiles(folder).Select(f => Path.GetFileName(f)).ToArray() : [];
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            return []; // an unlistable folder: the route walk says so where it matters
        }
    }

    /// <summary>The warning for <paramref name="modFolder"/>, at <paramref name="relative"/> in the game's terms.</summary>
    public string Warn(string modFolder, string relative) =>
        $"mod folder {modFolder} looks like an archive's entries, but the game has no file at {relative} (letter case aside), "
        + $"so its files are added as new files; {(Closest(relative) is { } closest ? $"closest game path: {closest}" : "the game has no archive like it")}";

    /// <summary>
    /// The closest game file: one with the same name (letter case aside) in another folder, else one with the same
    /// extension, else one with an archive extension; among those, the smallest edit distance between the relative paths
    /// (letter case aside), then the first in ordinal order.
    /// </summary>
    private string? Closest(string relative)
    {
        _gameFiles ??= GameTree.Files(gameRoot).Order(StringComparer.Ordinal).ToArray();
        string name = Path.GetFileName(relative), extension = Path.GetExtension(relative);
        var candidates = _gameFiles.Where(f => Path.GetFileName(f).Equals(name, StringComparison.OrdinalIgnoreCase)).ToArray();
        if (candidates.Length == 0)
            candidates = _gameFiles.Where(f => Path.GetExtension(f).Equals(extension, StringComparison.OrdinalIgnoreCase)).ToArray();
        if (candidates.Length == 0)
            candidates = _gameFiles.Where(f => ArchiveExtensions.Contains(Path.GetExtension(f))).ToArray();
        return candidates.MinBy(f => EditDistance.IgnoringCase(f, relative));
    }
}
