using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Adds the routes that follow the archives mods change, as each <see cref="IFollowingFormat"/> finds them beside their leader,
/// in the game folder and inside archives alike: a follower becomes a route of its
/// own (or, when mods change inside it too, that route) rebuilt from its leader, unless a mod replaces it whole: then the
/// mod's file wins, reported as a conflict, or the format refuses it. A follower that cannot follow is one warning, and the
/// leader is served all the same.
/// </summary>
internal static class FollowingRoutes
{
    private static readonly IFollowingFormat[] Formats = ArchiveFormats.All.OfType<IFollowingFormat>().ToArray();

    /// <summary>The routes with every follower's added (or given its leader), sorted by path.</summary>
    public static ArchiveRoute[] Attach(IReadOnlyList<ArchiveRoute> routes, IReadOnlyList<FileOverride> overrides, List<RouteConflict> conflicts, List<string> warnings)
    {
        var byPath = routes.ToDictionary(r => r.RelativePath, StringComparer.Ordinal);
        foreach (var format in Formats)
        {
            foreach (var leader in routes.Where(r => r.Slice is null && format.CanFollow(r.Format)))
            {
                string folder = FolderOf(leader.RelativePath);
                var place = new Leader(leader.RelativePath, leader.GamePath, FolderFiles(leader.GamePath), folder);
                foreach (var follower in format.FollowersOf(place, warnings))
                {
                    string followerRelative = folder + follower.Name;
                    if (overrides.FirstOrDefault(o => o.RelativePath == followerRelative) is { } whole)
                    {
                        if (format.WhyNotReplacedWhole(followerRelative, leader.RelativePath, whole.SourcePath) is { } refused)
                            throw new IOException(refused);
                        var mods = ModsOf(leader);
                        conflicts.Add(new RouteConflict(followerRelative, null, [.. mods, whole.Mod], whole.Mod)
                            { Rules = [.. mods.Select(_ => format.RuleFor(leader.RelativePath)), whole.Rule] });
                        continue;
                    }
                    if (WhyNot(format, follower, followerRelative, leader) is { } why)
                    {
                        warnings.Add(why);
                        continue;
                    }
                    byPath[followerRelative] = byPath.TryGetValue(followerRelative, out var inside)
                        ? inside with { Follows = leader }
                        : new ArchiveRoute(followerRelative, follower.Source.Path, format, ArchivePatch.Empty, []) { Follows = leader };
                }
            }
        }
        return byPath.Values.Select(r => WithNestedFollowers(r, warnings)).OrderBy(r => r.RelativePath, StringComparer.Ordinal).ToArray();
    }

    /// <summary>
    /// The route with, at every depth, the entries that follow each entry mods change inside it (a leader entry pulls its
    /// followers in the same archive folder along): a nested route of its own, or, when mods change inside that entry too, that nested
    /// route given its leader. The outer archive's index is read once more here, only when it has such a leader entry.
    /// </summary>
    private static ArchiveRoute WithNestedFollowers(ArchiveRoute route, List<string> warnings)
    {
        if (route.Nested.Count == 0)
            return route;
        var nested = new List<NestedRoute>(route.Nested.Count);
        var conflicts = route.Conflicts.ToList();
        foreach (var n in route.Nested)
        {
            var inner = WithNestedFollowers(n.Route, warnings);
            conflicts.AddRange(inner.Conflicts.Skip(n.Route.Conflicts.Count)); // found below: reported here too, as ToRoute does
            nested.Add(n with { Route = inner });
        }
        var leaders = nested.Where(n => !n.Entry.IsIndex && Formats.Any(f => f.CanFollow(n.Route.Format))).ToList();
        if (leaders.Count == 0)
            return route with { Nested = nested, Conflicts = conflicts };
        ArchiveIndex index;
        try
        {
            index = route.ReadOriginal();
        }
        catch (Exception e) when (e is ArchiveFormatException or IOException)
        {
            return route with { Nested = nested, Conflicts = conflicts }; // building it reports the damage beside the other archives
        }
        var names = route.Format.NameComparer;
        foreach (var format in Formats)
        {
            foreach (var leader in leaders.Where(l => format.CanFollow(l.Route.Format)))
            {
                string folder = FolderOf(leader.Entry.Name!);
                var place = new Leader(leader.Route.RelativePath, null, EntriesOf(route, index, folder), $"{route.RelativePath}/{folder}");
                foreach (var follower in format.FollowersOf(place, warnings))
                {
                    var key = EntryKey.ByName(follower.Entry!.Name!);
                    string followerRelative = $"{route.RelativePath}/{follower.Entry.Name}";
                    if (route.Patch.Changes.FirstOrDefault(c => !c.Key.IsIndex && names.Equals(c.Key.Name, key.Name)) is { } whole)
                    {
                        if (format.WhyNotReplacedWhole(followerRelative, leader.Route.RelativePath, whole.Input?.Path ?? whole.Origin) is { } refused)
                            throw new IOException(refused);
                        var mods = ModsOf(leader.Route);
                        conflicts.Add(new RouteConflict(route.RelativePath, key.ToString(), [.. mods, whole.Origin], whole.Origin)
                            { Rules = [.. mods.Select(_ => format.RuleFor(leader.Route.RelativePath)), whole.Rule ?? ModRules.Mirror] });
                        continue;
                    }
                    if (WhyNot(format, follower, followerRelative, leader.Route) is { } why)
                    {
                        warnings.Add(why);
                        continue;
                    }
                    int at = nested.FindIndex(n => !n.Entry.IsIndex && names.Equals(n.Entry.Name, key.Name));
                    if (at >= 0)
                        nested[at] = nested[at] with { Route = nested[at].Route with { Follows = leader.Route } };
                    else
                        nested.Add(new NestedRoute(key, new ArchiveRoute(followerRelative, route.GamePath, format, ArchivePatch.Empty, [], follower.Source)
                            { Follows = leader.Route }, $"follows {leader.Route.RelativePath}"));
                }
            }
        }
        return route with { Nested = nested, Conflicts = conflicts };
    }

    // The warning for a follower that cannot be rebuilt for its leader, or null.
    private static string? WhyNot(IFollowingFormat format, Sibling follower, string followerRelative, ArchiveRoute leader) =>
        format.WhyNotFollowing(follower.Source, leader) is { } why
            ? $"{followerRelative}: does not follow {leader.RelativePath}: {why}"
            : null;

    private static string FolderOf(string path) => path[..(path.LastIndexOf('/') + 1)]; // "" when no '/

    // The game folder's files beside the leader, by the names the game spells them.
    private static IEnumerable<Sibling> FolderFiles(string leaderPath) =>
        Directory.EnumerateFiles(Path.GetDirectoryName(leaderPath)!).Select(f => new Sibling(Path.GetFileName(f), ArchiveSource.File(f), null));

    // The entries of the outer archive's folder, each with why it cannot be rebuilt in place, if so.
    private static IEnumerable<Sibling> EntriesOf(ArchiveRoute route, ArchiveIndex index, string folder)
    {
        var names = route.Format.NameComparer;
        return index.Entries.Where(e => e.Name is { } n && n.Length > folder.Length && names.Equals(n[..folder.Length], folder) && n.IndexOf('/', folder.Length) < 0)
            .Select(e => new Sibling(e.Name![folder.Length..], new ArchiveSource(index.Source.Path, index.Source.Offset + e.Offset, e.Size, index.Source.Identity), e,
                index.WhyNotInPlace(e) ?? (index.StoredCodec(e) is null ? null : "stored compressed in " + route.RelativePath)));
    }

    private static string[] ModsOf(ArchiveRoute route) =>
        route.Patch.Changes.Select(c => c.Origin).Concat(route.Nested.Select(n => n.Origin)).Distinct(StringComparer.Ordinal).ToArray();
}
