using System.Globalization;
using System.Text;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving.Plans;

/// <summary>
/// What a resolved <see cref="RoutePlan"/> depends on, as one hash (docs/DESIGN.md, "Route plans kept"): this build of
/// ArchiveEmu, the game folder, the language, where inner archives are decoded, the mod folders in order, and every file
/// and folder under the mod folders and the game folder, each file with its identity (size, mtime, ctime, inode). A walk
/// reads nothing else: mod files, game files, and what it decodes from game files (which a loaded plan checks itself,
/// <see cref="PlanReader"/>). So an added, removed, renamed or rewritten file anywhere is another key, and the walk runs again.
/// </summary>
internal static class PlanKey
{
    /// <summary>
    /// The key of a resolve of <paramref name="mods"/> over <paramref name="gameFolder"/>, as the files are now, with
    /// <paramref name="otherLoaded"/> loaded beside them (a merge may apply only while one is, and read its files).
    /// </summary>
    public static string Of(string gameFolder, IReadOnlyList<string> mods, string language, string? decodeFolder, IReadOnlyList<string>? otherLoaded = null)
    {
        var text = new StringBuilder(64 * 1024);
        text.Append("archiveemu-plan ").Append(PlanFormat.Version).Append(' ').Append(PlanFormat.Build).Append('\n');
        text.Append("language ").Append(language).Append('\n');
        text.Append("decode ").Append(decodeFolder).Append('\n');
        text.Append("game ").Append(gameFolder).Append('\n');
        AppendTree(text, gameFolder);
        for (int i = 0; i < mods.Count; i++)
        {
            text.Append("mod ").Append(i.ToString(CultureInfo.InvariantCulture)).Append(' ').Append(mods[i]).Append('\n');
            AppendTree(text, mods[i]);
        }
        foreach (var loaded in otherLoaded ?? [])
        {
            text.Append("loaded ").Append(loaded).Append('\n');
            AppendTree(text, loaded);
        }
        return CacheKey.HashOf(text);
    }

    // Every entry below the folder as the walk sees it (GameTree: links followed, each real folder once, a prefix's drive links
    // not entered, an unreadable folder as such), files with their identity (a mod's link is refused or followed by the walk,
    // and either way its target's identity is here). Hidden and system entries too: the walk may read them. Before, .NET's
    // recursive listing followed every link: two `ln -s .` made a build with the cache run for minutes, and a Wine prefix's
    // z: reached /proc.
    private static void AppendTree(StringBuilder text, string folder)
    {
        foreach (var (relative, kind) in GameTree.Walk(folder))
        {
            text.Append(kind switch { GameTree.Kind.Folder => "d ", GameTree.Kind.File => "f ", _ => "u " }).Append(relative);
            if (kind == GameTree.Kind.File)
            {
                text.Append(' ');
                AppendIdentity(text, GamePaths.Full(folder, relative));
            }
            text.Append('\n');
        }
    }

    private static void AppendIdentity(StringBuilder text, string path)
    {
        try
        {
            var identity = FileIdentity.Of(path);
            text.Append(CultureInfo.InvariantCulture,
                $"{identity.Length} {identity.LastWriteUtc.Ticks} {identity.ChangeUtc.Ticks} {identity.Inode}");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            text.Append("unreadable"); // a link leading nowhere, a file removed meanwhile: as it is now
        }
    }
}
