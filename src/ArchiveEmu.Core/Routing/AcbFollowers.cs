using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.Core.Formats.Awb;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Makes the ACB of each streamed AWB that mods change follow it (docs/DESIGN.md, "ACB follows its AWB"), in the game
/// folder and inside archives alike (an AWB that is an entry of a CPK pulls along the ACB entry beside it): the ACB named
/// like the AWB (letter case aside), else the ACBs of the same folder whose StreamAwbHash names it (<see cref="AcbSiblings"/>),
/// become routes of their own, rebuilt with the emulated AWB's header copy and hash, unless a mod replaces the ACB whole
/// (the mod's file wins; reported as a conflict). An ACB that cannot follow (damaged, masked, naming no such AWB, stored
/// compressed in its archive) is one warning, and the AWB is served all the same.
/// </summary>
internal static class AcbFollowers
{
    /// <summary>The rule reports name for an ACB that follows <paramref name="awb"/>.</summary>
    public static string RuleFor(string awb) => $"ACB follows {awb}";

    /// <summary>The routes with every followed ACB's added (or, for an ACB mods change inside, given its AWB), sorted by path.</summary>
    public static ArchiveRoute[] Attach(IReadOnlyList<ArchiveRoute> routes, IReadOnlyList<FileOverride> overrides, List<RouteConflict> conflicts, List<string> warnings)
    {
        var byPath = routes.ToDictionary(r => r.RelativePath, StringComparer.Ordinal);
        foreach (var awb in routes.Where(r => r.Format == AwbFormat.Instance && r.Slice is null))
        {
            string folder = awb.RelativePath.Contains('/') ? awb.RelativePath[..(awb.RelativePath.LastIndexOf('/') + 1)] : "";
            foreach (var acb in AcbSiblings.Of(awb.RelativePath, FolderFiles(awb.GamePath), folder, warnings))
            {
                string acbRelative = folder + acb.Name;
                if (overrides.FirstOrDefault(o => o.RelativePath == acbRelative) is { } whole)
                {
                    var mods = ModsOf(awb);
                    conflicts.Add(new RouteConflict(acbRelative, null, [.. mods, whole.Mod], whole.Mod) { Rules = [.. mods.Select(_ => RuleFor(awb.RelativePath)), whole.Rule] });
                    continue;
                }
                if (WhyNotFollowing(acb.Source, awb) is { } why)
                {
                    warnings.Add($"{acbRelative}: does not follow {awb.RelativePath}: {why}; the AWB is served emulated, the ACB as it is");
                    continue;
                }
                byPath[acbRelative] = byPath.TryGetValue(acbRelative, out var inside)
                    ? inside with { StreamAwb = awb }
                    : new ArchiveRoute(acbRelative, acb.Source.Path, AcbFormat.Instance, ArchivePatch.Empty, []) { StreamAwb = awb };
            }
        }
        return byPath.Values.Select(r => WithNestedFollowers(r, warnings)).OrderBy(r => r.RelativePath, StringComparer.Ordinal).ToArray();
    }

    /// <summary>
    /// The route with, at every depth, the ACB entry that follows each AWB entry mods change inside it (a CPK's
    /// <c>sound/bgm.awb</c> pulls <c>sound/bgm.acb</c> along): a nested route of its own, or, when mods change inside
    /// that ACB too, that nested route given its AWB. The outer archive's index is read once more here, only when it
    /// has such an AWB entry.
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
        var awbs = nested.Where(n => n.Route.Format == AwbFormat.Instance && !n.Entry.IsIndex).ToList();
        if (awbs.Count == 0)
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
        foreach (var awb in awbs)
        {
            string awbName = awb.Entry.Name!;
            string folder = awbName.Contains('/') ? awbName[..(awbName.LastIndexOf('/') + 1)] : "";
            var siblings = index.Entries.Where(e => e.Name is { } n && n.Length > folder.Length && names.Equals(n[..folder.Length], folder) && n.IndexOf('/', folder.Length) < 0)
                .Select(e => new AcbSiblings.Candidate(e.Name![folder.Length..], new ArchiveSource(index.Source.Path, index.Source.Offset + e.Offset, e.Size, index.Source.Identity), e,
                    index.WhyNotInPlace(e) ?? (index.StoredCodec(e) is null ? null : "stored compressed in " + route.RelativePath)));
            foreach (var acb in AcbSiblings.Of(awb.Route.RelativePath, siblings, $"{route.RelativePath}/{folder}", warnings))
            {
                var key = EntryKey.ByName(acb.Entry!.Name!);
                string acbRelative = $"{route.RelativePath}/{acb.Entry.Name}";
                if (route.Patch.Changes.FirstOrDefault(c => !c.Key.IsIndex && names.Equals(c.Key.Name, key.Name)) is { } whole)
                {
                    var mods = ModsOf(awb.Route);
                    conflicts.Add(new RouteConflict(route.RelativePath, key.ToString(), [.. mods, whole.Origin], whole.Origin)
                        { Rules = [.. mods.Select(_ => RuleFor(awb.Route.RelativePath)), whole.Rule ?? ModRules.Mirror] });
                    continue;
                }
                if (WhyNotFollowing(acb.Source, awb.Route) is { } why)
                {
                    warnings.Add($"{acbRelative}: does not follow {awb.Route.RelativePath}: {why}; the AWB is served emulated, the ACB as it is");
                    continue;
                }
                int at = nested.FindIndex(n => !n.Entry.IsIndex && names.Equals(n.Entry.Name, key.Name));
                if (at >= 0)
                    nested[at] = nested[at] with { Route = nested[at].Route with { StreamAwb = awb.Route } };
                else
                    nested.Add(new NestedRoute(key, new ArchiveRoute(acbRelative, route.GamePath, AcbFormat.Instance, ArchivePatch.Empty, [], acb.Source) { StreamAwb = awb.Route },
                        $"follows {awb.Route.RelativePath}"));
            }
        }
        return route with { Nested = nested, Conflicts = conflicts };
    }

    // The game folder's files beside the AWB, by the names the game spells them.
    private static IEnumerable<AcbSiblings.Candidate> FolderFiles(string awbPath) =>
        Directory.EnumerateFiles(Path.GetDirectoryName(awbPath)!).Select(f => new AcbSiblings.Candidate(Path.GetFileName(f), ArchiveSource.File(f), null));

    /// <summary>Why the ACB cannot be rebuilt for the AWB (one line), or null when it can; an ACB that keeps no streamed AWB header does not describe it.</summary>
    private static string? WhyNotFollowing(ArchiveSource acbSource, ArchiveRoute awb)
    {
        try
        {
            var acb = AcbFile.Read(acbSource);
            if (acb.StreamAwbHeader is null)
                return "it keeps no streamed AWB header (StreamAwbAfs2Header), so it does not describe the AWB";
            if (acb.Masked)
                return "its Header table is XOR-masked, which ArchiveEmu reads but does not rebuild";
            acb.StreamAwbRow(Path.GetFileNameWithoutExtension(awb.RelativePath));
            return null;
        }
        catch (ArchiveFormatException e)
        {
            return e.Message;
        }
    }

    private static string[] ModsOf(ArchiveRoute route) =>
        route.Patch.Changes.Select(c => c.Origin).Concat(route.Nested.Select(n => n.Origin)).Distinct(StringComparer.Ordinal).ToArray();
}
