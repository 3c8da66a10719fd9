using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;

namespace ArchiveEmu.Cli.Archives;

/// <summary>
/// How <c>ls</c> and <c>cat</c> find an emulated archive by a path relative to the game, at any depth
/// (<c>CPK/EN.CPK/FIELD/PACK/FD007_003.ARC</c>), and where a path below one names an entry of it.
/// </summary>
internal static class ArchivePaths
{
    /// <summary>
    /// The emulated archive at <paramref name="target"/> (the caller disposes it) and the route mods give it (null when none):
    /// a route of the plan, else an archive inside an archive that mods change inside, built for its entry, else the game's file.
    /// </summary>
    /// <param name="built">Build it from its inputs, never from the cache's stored layout: that layout lists the entries
    /// but not where each one's bytes come from, which <c>cat ARCHIVE/ENTRY</c> needs.</param>
    /// <param name="untouched">Where an archive inside an archive that no mod changes inside is opened from (<c>ls</c> of one); null: not looked for.</param>
    public static (EmulatedArchive Archive, ArchiveRoute? Route) Open(EmulatedGame game, string target, bool built = false, UntouchedInnerArchives? untouched = null)
    {
        var route = game.Plan.FindArchive(target);
        var inner = route is null ? InnerRoute(game.Plan.Archives, target) : null;
        if (inner is not null)
        {
            foreach (var warning in game.Warn is null ? [] : CaseTwinWarning.Of(inner)) // as the outer archive's serving says them
                game.Warn!(warning);
            return (inner.Build(), inner);
        }
        if (route is null && untouched is not null && SplitAtEntry(game, target) is var (outer, rest))
            return (untouched.OpenArchive(Open(game, outer, built).Archive, outer, rest), null);
        return (built && route is not null ? game.Build(route) : game.OpenArchive(target), route);
    }

    /// <summary>
    /// For a path that is no archive and no file of the game (<c>CPK/EN.CPK/FONT/FONT0.FNT</c>): the longest leading part that
    /// is one, and the rest, which names an entry of it; null when the path is itself an archive or a file, or nothing below one.
    /// </summary>
    public static (string Archive, string Entry)? SplitAtEntry(EmulatedGame game, string target)
    {
        if (IsArchiveOrFile(game, target))
            return null;
        for (int slash = target.LastIndexOf('/'); slash > 0; slash = target.LastIndexOf('/', slash - 1))
        {
            if (IsArchiveOrFile(game, target[..slash]))
                return (target[..slash], target[(slash + 1)..]);
        }
        return null;
    }

    private static bool IsArchiveOrFile(EmulatedGame game, string path) =>
        game.Plan.FindArchive(path) is not null || InnerRoute(game.Plan.Archives, path) is not null
        || game.Plan.FindOverride(path) is not null || GamePaths.FileExists(GamePaths.Resolve(game.Plan.GameFolder, path));

    // The nested route at target, at any depth; paths compare as a mod path does, letter case aside.
    private static ArchiveRoute? InnerRoute(IEnumerable<ArchiveRoute> routes, string target)
    {
        foreach (var nested in routes.SelectMany(r => r.Nested))
        {
            if (string.Equals(nested.Route.RelativePath, target, StringComparison.OrdinalIgnoreCase))
                return nested.Route;
            if (InnerRoute([nested.Route], target) is { } deeper)
                return deeper;
        }
        return null;
    }
}
