using ArchiveEmu.Core.Routing;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// The mount's lines for the merged Persona tables (docs/TABLES.md): one per table (its path through its archive, the mods
/// with their field counts, how many fields several mods set; <c>archiveemu ls</c> of that path lists them), then what
/// its merge did not apply. At mount every line; at a hot reload only the lines that are new.
/// </summary>
internal static class MergedTableLog
{
    public static void Write(ILogger logger, RoutePlan plan, RoutePlan? before = null, string prefix = "")
    {
        var old = before is null ? [] : Lines(before).ToHashSet();
        foreach (var line in Lines(plan).Where(l => !old.Contains(l)))
            logger.LogInformation("{Prefix}{Line}", prefix, line);
    }

    private static IEnumerable<string> Lines(RoutePlan plan)
    {
        foreach (var (path, table) in MergedEntryReports.Of(plan))
        {
            yield return $"merged table: {path} from {string.Join(", ", table.Mods.Select(m => $"{m.Mod} ({m.Fields})"))}; "
                + $"{table.Conflicts.Count} field(s) set by several mods";
            foreach (var line in table.NotApplied)
                yield return $"not applied: {line}";
        }
    }
}
