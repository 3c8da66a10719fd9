using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.Core.Formats.Awb;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Makes the ACB beside each streamed AWB that mods change follow it (docs/DESIGN.md, "ACB follows its AWB"): the game's
/// <c>x.acb</c> in the AWB's folder (letter case aside) becomes a route of its own, rebuilt with the emulated AWB's header
/// copy and hash, unless a mod replaces it whole (the mod's file wins; reported as a conflict). An ACB that cannot follow
/// (damaged, masked, naming no such AWB) is one warning, and the AWB is served all the same.
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
            if (Sibling(awb) is not { } acbPath)
                continue;
            string acbRelative = awb.RelativePath.Contains('/') ? $"{awb.RelativePath[..awb.RelativePath.LastIndexOf('/')]}/{Path.GetFileName(acbPath)}" : Path.GetFileName(acbPath);
            if (overrides.FirstOrDefault(o => o.RelativePath == acbRelative) is { } whole)
            {
                var mods = ModsOf(awb);
                conflicts.Add(new RouteConflict(acbRelative, null, [.. mods, whole.Mod], whole.Mod) { Rules = [.. mods.Select(_ => RuleFor(awb.RelativePath)), whole.Rule] });
                continue;
            }
            if (WhyNotFollowing(acbPath, awb) is { } why)
            {
                warnings.Add($"{acbRelative}: does not follow {awb.RelativePath}: {why}; the AWB is served emulated, the ACB as it is");
                continue;
            }
            byPath[acbRelative] = byPath.TryGetValue(acbRelative, out var inside)
                ? inside with { StreamAwb = awb }
                : new ArchiveRoute(acbRelative, acbPath, AcbFormat.Instance, ArchivePatch.Empty, []) { StreamAwb = awb };
        }
        return byPath.Values.OrderBy(r => r.RelativePath, StringComparer.Ordinal).ToArray();
    }

    /// <summary>The game's ACB named like the AWB in its folder, letter case aside (the exact spelling first), or null.</summary>
    private static string? Sibling(ArchiveRoute awb)
    {
        var folder = Path.GetDirectoryName(awb.GamePath)!;
        string wanted = Path.GetFileNameWithoutExtension(awb.GamePath) + ".acb";
        // From the listing, not File.Exists: on a case-insensitive file system that would answer for BGM.Acb with our spelling,
        // and what is served and reported keeps the game's.
        var matches = Directory.EnumerateFiles(folder).Where(f => string.Equals(Path.GetFileName(f), wanted, StringComparison.OrdinalIgnoreCase))
            .Order(StringComparer.Ordinal).ToList();
        return matches.FirstOrDefault(f => Path.GetFileName(f) == wanted) ?? matches.FirstOrDefault();
    }

    /// <summary>Why the ACB cannot be rebuilt for the AWB (one line), or null when it can; an ACB that keeps no streamed AWB header does not describe it.</summary>
    private static string? WhyNotFollowing(string acbPath, ArchiveRoute awb)
    {
        try
        {
            var acb = AcbFile.Read(acbPath);
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
