using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// An index far past the original's end (<c>1000000.adx</c> made a 16 KiB archive 53 MiB): more than 1,024 empty slots,
/// or an archive grown more than tenfold by them. Decided once here, so <c>build</c>, <c>cat</c>, <c>ls</c> and the mount say the same.
/// </summary>
internal static class FarIndexWarning
{
    private const int MaxEmptySlots = 1024;
    private const int MaxGrowth = 10;

    /// <summary>The warning about <paramref name="route"/> as <paramref name="summary"/> describes it served, or null when it has no such index.</summary>
    public static string? Of(ArchiveRoute route, ArchiveSummary summary)
    {
        int fileChanges = route.Patch.Changes.Count(c => !c.IsDelete);
        int emptySlots = summary.Added - (fileChanges - summary.Replaced); // slots added for no file: the gap before an index past the end
        if (emptySlots <= 0 || (emptySlots <= MaxEmptySlots && summary.Size <= MaxGrowth * summary.OriginalSize))
            return null;
        if (route.Patch.Changes.Where(c => c.Key.IsIndex && !c.IsDelete).MaxBy(c => c.Key.Index) is not { } farthest)
            return null;
        bool grown = summary.Size > MaxGrowth * summary.OriginalSize;
        return $"{route.RelativePath}: entry {farthest.Key.Index} (from {farthest.Origin}) adds {emptySlots} empty slots after the "
            + $"{summary.Entries - summary.Added} entries of the original{(grown ? $", {summary.OriginalSize} -> {summary.Size} bytes" : "")}; a typo in the index?";
    }
}
