using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Every merged entry of a plan, named by its path through its archive (<c>CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL</c>,
/// <c>CPK/DATA.CPK/init_free.bin/battle/UNIT.TBL</c>): the game folder's archive, then the entry's path from that archive's root,
/// which is how the report and the merge name it. What build, ls and the host's log show. An entry merged once and bound in
/// several CPKs (docs/TABLES.md, "In routing") is listed once, under the archive whose copy was its original.
/// </summary>
internal static class MergedEntryReports
{
    /// <summary>The plan's merged entries, archive by archive, nested archives' entries under the game archive that holds them, each merge once.</summary>
    public static IEnumerable<BoundMerge> Of(RoutePlan plan) =>
        Bound(plan).GroupBy(t => t.Report, ReferenceEqualityComparer.Instance).Select(g =>
        {
            var named = g.FirstOrDefault(t => t.Archive == t.Report.Original, g.First());
            return new BoundMerge($"{named.Archive}/{named.Report.Path}", named.Report, [named.Archive, .. g.Select(t => t.Archive).Where(c => c != named.Archive)]);
        });

    /// <summary>
    /// The merged entry at <paramref name="path"/> (letter case aside) through any archive it is bound in, named as <see cref="Of"/>
    /// names it; null when none is.
    /// </summary>
    public static BoundMerge? Find(RoutePlan plan, string path)
    {
        var bound = Bound(plan).FirstOrDefault(t => string.Equals($"{t.Archive}/{t.Report.Path}", path, StringComparison.OrdinalIgnoreCase));
        return bound.Report is null ? null : Of(plan).First(t => ReferenceEquals(t.Report, bound.Report));
    }

    // Every game archive's merged entries, a shared merge once per archive it is bound in.
    private static IEnumerable<(string Archive, EntryMergeReport Report)> Bound(RoutePlan plan) =>
        plan.Archives.SelectMany(route => Within(route, route.RelativePath));

    // Entries are merged only inside an archive of the game folder and the archives stored in it, so the top route is that archive.
    private static IEnumerable<(string, EntryMergeReport)> Within(ArchiveRoute route, string archive) =>
        route.Merges.Select(t => (archive, t)).Concat(route.Nested.SelectMany(n => Within(n.Route, archive)));
}

/// <summary>A merged entry named by its path through its archive, and every game archive serving it (<see cref="BoundIn"/>, the named one first or alone).</summary>
internal sealed record BoundMerge(string Path, EntryMergeReport Report, IReadOnlyList<string> BoundIn)
{
    public void Deconstruct(out string path, out EntryMergeReport report) => (path, report) = (Path, Report);
}
