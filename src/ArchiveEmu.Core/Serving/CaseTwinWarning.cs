using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// An entry a mod adds beside one that differs from it only in letter case, in a format whose names compare with letter
/// case (PAK, tar, ZIP: docs/FORMATS.md, "Letter case of entry names"). A Windows-made mod's <c>F007.BMD</c> meant to replace
/// <c>f007.bmd</c> becomes one more entry that the game, asking for <c>f007.bmd</c>, never reads. Decided once here, so
/// <c>build</c>, <c>cat</c>, <c>ls</c> and the mount say the same, and from the route and the original's index rather than
/// the built archive: a merged copy served from the cache, and an archive inside another, are judged the same way.
/// </summary>
internal static class CaseTwinWarning
{
    /// <summary>One warning per such entry of <paramref name="route"/> and of every archive nested in it.</summary>
    public static IEnumerable<string> Of(ArchiveRoute route)
    {
        foreach (var nested in route.Nested)
        {
            foreach (var warning in Of(nested.Route))
                yield return warning;
        }
        var format = route.Format;
        var named = route.Patch.Changes.Where(c => !c.IsDelete && c.Key.Name is not null).ToArray();
        if (named.Length == 0 || format.NameComparer.Equals("a", "A"))
            yield break; // no name given, or names meet whatever their case: routing and the builder matched them already
        var names = route.ReadOriginal().Entries.Where(e => e.Name is not null).Select(e => e.Name!).ToArray();
        var exact = names.ToHashSet(format.NameComparer);
        var twins = names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).ToDictionary(g => g.Key, g => g.First(), StringComparer.OrdinalIgnoreCase);
        foreach (var change in named.Where(c => !exact.Contains(c.Key.Name!)))
        {
            if (twins.TryGetValue(change.Key.Name!, out var twin))
                yield return $"{route.RelativePath}: entry {change.Key.Name} (from {change.Origin}) is added as a new entry beside {twin}: {format.Name.ToUpperInvariant()} "
                    + $"compares entry names with letter case, so it replaces nothing; spell it {twin} to replace that entry";
        }
    }
}
