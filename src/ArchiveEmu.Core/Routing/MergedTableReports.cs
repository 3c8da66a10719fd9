using ArchiveEmu.Core.Tables;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Every merged Persona table of a plan, named by its path through its archive (<c>CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL</c>,
/// <c>CPK/DATA.CPK/init_free.bin/battle/UNIT.TBL</c>): the game folder's CPK, then the table's path from that CPK's root,
/// which is how the report and the catalog name it. What build, ls and the host's log show. A table merged once and bound in
/// several CPKs (docs/TABLES.md, "In routing") is listed once, under the CPK whose copy was its original.
/// </summary>
internal static class MergedTableReports
{
    /// <summary>The plan's merged tables, archive by archive, nested archives' tables under the CPK that holds them, each merge once.</summary>
    public static IEnumerable<BoundTable> Of(RoutePlan plan) =>
        Bound(plan).GroupBy(t => t.Report, ReferenceEqualityComparer.Instance).Select(g =>
        {
            var named = g.FirstOrDefault(t => t.Cpk == t.Report.Original, g.First());
            return new BoundTable($"{named.Cpk}/{named.Report.Path}", named.Report, [named.Cpk, .. g.Select(t => t.Cpk).Where(c => c != named.Cpk)]);
        });

    /// <summary>
    /// The merged table at <paramref name="path"/> (letter case aside) through any CPK it is bound in, named as <see cref="Of"/>
    /// names it; null when none is.
    /// </summary>
    public static BoundTable? Find(RoutePlan plan, string path)
    {
        var bound = Bound(plan).FirstOrDefault(t => string.Equals($"{t.Cpk}/{t.Report.Path}", path, StringComparison.OrdinalIgnoreCase));
        return bound.Report is null ? null : Of(plan).First(t => ReferenceEquals(t.Report, bound.Report));
    }

    // Every CPK's merged tables, a shared merge once per CPK it is bound in.
    private static IEnumerable<(string Cpk, TableMergeReport Report)> Bound(RoutePlan plan) =>
        plan.Archives.SelectMany(route => Within(route, route.RelativePath));

    // Tables are merged only inside a CPK of the game folder and the archives stored in it, so the top route is that CPK.
    private static IEnumerable<(string, TableMergeReport)> Within(ArchiveRoute route, string cpk) =>
        route.Tables.Select(t => (cpk, t)).Concat(route.Nested.SelectMany(n => Within(n.Route, cpk)));
}

/// <summary>A merged table named by its path through its archive, and every game CPK serving it (<see cref="BoundIn"/>, the named one first or alone).</summary>
internal sealed record BoundTable(string Path, TableMergeReport Report, IReadOnlyList<string> BoundIn)
{
    public void Deconstruct(out string path, out TableMergeReport report) => (path, report) = (Path, Report);
}
