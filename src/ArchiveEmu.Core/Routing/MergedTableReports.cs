using ArchiveEmu.Core.Tables;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Every merged Persona table of a plan, named by its path through its archive (<c>CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL</c>,
/// <c>CPK/DATA.CPK/init_free.bin/battle/UNIT.TBL</c>): the game folder's CPK, then the table's path from that CPK's root,
/// which is how the report and the catalog name it. What build, ls and the host's log show.
/// </summary>
internal static class MergedTableReports
{
    /// <summary>The plan's merged tables, archive by archive, nested archives' tables under the CPK that holds them.</summary>
    public static IEnumerable<(string Path, TableMergeReport Report)> Of(RoutePlan plan) =>
        plan.Archives.SelectMany(route => Within(route, route.RelativePath));

    // Tables are merged only inside a CPK of the game folder and the archives stored in it, so the top route is that CPK.
    private static IEnumerable<(string, TableMergeReport)> Within(ArchiveRoute route, string cpk) =>
        route.Tables.Select(t => ($"{cpk}/{t.Path}", t)).Concat(route.Nested.SelectMany(n => Within(n.Route, cpk)));
}
