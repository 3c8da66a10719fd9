using System.Text.Json.Nodes;
using ArchiveEmu.Cli.Archives;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;

namespace ArchiveEmu.Cli.Output;

/// <summary>What <c>build</c> prints: per archive details, then a summary table; or one JSON document.</summary>
internal sealed class BuildReport(EmulatedGame game, IReadOnlyList<BuildReport.Archive> archives, double routeMs, StorageKind storage, MergePolicy policy,
    CompressionDecision? compression, IReadOnlyList<BuildReport.Failure> failures, IReadOnlyList<string> warnings)
{
    /// <summary>An archive that could not be built (a damaged original, a mod's change it refuses): reported, and the build goes on.</summary>
    public sealed record Failure(ArchiveRoute Route, string Error, string Hint)
    {
        public const string DamagedHint = "truncated or damaged original? verify the game files";
        public const string ModHint = "a mod changes what the archive does not have? check the mod's files";
    }

    /// <summary>The Reloaded-II setup the mods came from: the mods taken in order and the ones skipped are listed first.</summary>
    public ReloadedSetup? Reloaded { get; init; }

    public sealed record Archive(ArchiveRoute Route, int Entries, long SizeBefore, long SizeAfter, int Replaced, int Added, int Deleted,
        long FromOriginal, long FromLoose, long Generated, double BuildMs, bool LayoutFromCache,
        MergeDecision Decision, string CacheState, MergedExtent? Merged, double MergeMs)
    {
        public string Strategy => Merged is not null ? "merged" : "emulated";
    }

    public void WriteText(TextWriter o)
    {
        var plan = game.Plan;
        o.WriteLine($"routes resolved in {routeMs:F1} ms: {plan.Archives.Count} archives, {plan.Overrides.Count} whole-file overrides");
        o.WriteLine($"language: {game.Setup.Language}");
        foreach (var line in CappedLines.Of(Reloaded?.ReportLines() ?? [], "--json lists them all"))
            o.WriteLine(line);
        if (game.Cache is { } cache)
            o.WriteLine($"cache {cache.Folder}; storage under the game folder: {storage.Describe()}");
        if (compression is not null)
            o.WriteLine($"compression {compression.Reason}");
        foreach (var r in archives)
        {
            o.WriteLine($"{r.Route.RelativePath}  ({r.Route.Format.Name})");
            if (r.Route is { Follows: { } leader, Format: IFollowingFormat following })
                o.WriteLine($"  follows    {leader.RelativePath} ({following.FollowsAs})");
            o.WriteLine($"  entries    {r.Replaced} replaced, {r.Added} added, {r.Deleted} deleted");
            o.WriteLine($"  size       {r.SizeBefore} -> {r.SizeAfter} bytes");
            o.WriteLine($"  bytes      {r.FromOriginal} from the original, {r.FromLoose} from loose files, {r.Generated} rebuilt header/padding");
            o.WriteLine($"  built in   {r.BuildMs:F1} ms ({(r.LayoutFromCache ? "layout from the cache, original not parsed" : "original parsed")})");
            if (policy != MergePolicy.Never)
                o.WriteLine($"  decision   {r.Decision.Reason}");
            if (r.Merged is { } m)
                o.WriteLine($"  merged     {Units.Bytes(m.Chunks.Length)} stored ({m.Compression}, {Ratio(m):P0} of {Units.Bytes(m.Length)})"
                    + (r.CacheState == "hit" ? ", fresh in the cache" : $", written in {r.MergeMs:F1} ms"));
            if (r.Route.Patch.Changes.Count > 0)
                o.WriteLine($"  rules      {InputRules.Summary(r.Route)}");
            foreach (var c in r.Route.Conflicts)
                o.WriteLine($"  conflict   entry {c.Entry}: {ModsWithRules(c)} -> {c.Winner} wins");
        }
        foreach (var f in failures)
        {
            o.WriteLine($"{f.Route.RelativePath}  ({f.Route.Format.Name})");
            o.WriteLine($"  failed     {f.Error}; {f.Hint}");
        }
        foreach (var ov in plan.Overrides)
            o.WriteLine($"{ov.RelativePath}  (whole file from {ov.Mod}, rule {ov.Rule})");
        foreach (var c in plan.Conflicts.Where(c => c.Entry is null))
            o.WriteLine($"  conflict   {c.Target}: {ModsWithRules(c)} -> {c.Winner} wins");
        TableReport.WriteText(o, plan);
        foreach (var w in CappedLines.Of(warnings, "--json lists them all"))
            o.WriteLine($"warning    {w}");
        foreach (var mod in plan.ModReports.Where(m => m.Languages.Count > 0))
            o.WriteLine($"languages  {mod.Mod}: {string.Join("; ", mod.Languages)}");
        foreach (var n in plan.NotApplied)
            o.WriteLine($"not applied  {n.Line}");
        if (archives.Count > 0)
            WriteTable(o);
    }

    private void WriteTable(TextWriter o)
    {
        int width = Math.Max(7, archives.Max(a => a.Route.RelativePath.Length));
        o.WriteLine();
        o.WriteLine($"{"archive".PadRight(width)}  {"strategy",-8}  {"size",10}  {"stored",10}  {"cache",-6}  {"time ms",8}");
        foreach (var r in archives)
        {
            string stored = r.Merged is { } m ? Units.Bytes(m.Chunks.Length) : "-";
            o.WriteLine($"{r.Route.RelativePath.PadRight(width)}  {r.Strategy,-8}  {Units.Bytes(r.SizeAfter),10}  {stored,10}  {r.CacheState,-6}  {r.BuildMs + r.MergeMs,8:F1}");
        }
    }

    private static double Ratio(MergedExtent m) => m.Length == 0 ? 1 : (double)m.Chunks.Length / m.Length;

    public void WriteJson(TextWriter o)
    {
        var plan = game.Plan;
        var doc = new JsonObject
        {
            ["route_ms"] = routeMs,
            ["routes_from_cache"] = game.Plan.FromCache,
            ["cache"] = game.Cache?.Folder,
            ["storage"] = new JsonObject { ["device"] = storage.Device, ["rotational"] = storage.IsRotational },
            ["compression"] = compression is null ? null : new JsonObject { ["codec"] = compression.Codec, ["reason"] = compression.Reason },
            ["language"] = new JsonObject { ["id"] = game.Setup.Language.Id, ["source"] = game.Setup.Language.Source },
            ["archives"] = JsonOutput.Array(archives, r => new JsonObject
            {
                ["path"] = r.Route.RelativePath,
                ["format"] = r.Route.Format.Name,
                ["follows"] = r.Route.Follows?.RelativePath,
                ["replaced"] = r.Replaced,
                ["added"] = r.Added,
                ["deleted"] = r.Deleted,
                ["size_before"] = r.SizeBefore,
                ["size_after"] = r.SizeAfter,
                ["bytes_from_original"] = r.FromOriginal,
                ["bytes_from_loose"] = r.FromLoose,
                ["bytes_generated"] = r.Generated,
                ["build_ms"] = r.BuildMs,
                ["layout_from_cache"] = r.LayoutFromCache,
                ["strategy"] = r.Strategy,
                ["merge"] = new JsonObject
                {
                    ["decision"] = r.Decision.Merge,
                    ["reason"] = r.Decision.Reason,
                    ["cache"] = r.CacheState,
                    ["compression"] = r.Merged?.Compression,
                    ["stored_bytes"] = r.Merged?.Chunks.Length,
                    ["ratio"] = r.Merged is { } m ? Ratio(m) : (double?)null,
                    ["merge_ms"] = r.MergeMs,
                },
                ["conflicts"] = JsonOutput.Array(r.Route.Conflicts, ConflictJson),
                ["inputs"] = InputsJson(r.Route),
                ["nested"] = NestedJson(r.Route),
            }),
            ["overrides"] = JsonOutput.Array(plan.Overrides, ov => new JsonObject { ["path"] = ov.RelativePath, ["source"] = ov.SourcePath, ["mod"] = ov.Mod, ["rule"] = ov.Rule }),
            ["conflicts"] = JsonOutput.Array(plan.Conflicts, ConflictJson),
            ["tables"] = TableReport.Json(plan),
            ["failures"] = JsonOutput.Array(failures, f => new JsonObject { ["path"] = f.Route.RelativePath, ["format"] = f.Route.Format.Name, ["error"] = f.Error, ["hint"] = f.Hint }),
            ["warnings"] = JsonOutput.Strings(warnings),
            ["mods"] = JsonOutput.Array(plan.ModReports, m => new JsonObject { ["mod"] = m.Mod, ["layout"] = m.Layout, ["applied"] = JsonOutput.Strings(m.Applied), ["languages"] = JsonOutput.Strings(m.Languages) }),
            ["not_applied"] = JsonOutput.Array(plan.NotApplied, n => new JsonObject { ["mod"] = n.Mod, ["folder"] = n.Folder, ["files"] = JsonOutput.Strings(n.Files), ["reason"] = n.Reason, ["quiet"] = n.Quiet }),
            ["reloaded"] = Reloaded is { } r ? new JsonObject
            {
                ["setup"] = r.Location.Folder, ["found"] = r.Location.HowFound, ["app"] = r.App.Id, ["mods_folder"] = r.Folders.Mods,
                ["taken"] = JsonOutput.Array(r.Taken, t => new JsonObject
                    { ["id"] = t.Mod.Id, ["name"] = t.Mod.Name, ["version"] = t.Mod.Version, ["folder"] = t.Mod.Folder, ["needed_by"] = t.NeededBy }),
                ["skipped"] = JsonOutput.Array(r.Skipped, k => new JsonObject { ["id"] = k.Id, ["title"] = k.Title, ["folder"] = k.Folder, ["reason"] = k.Reason }),
            } : null,
        };
        JsonOutput.Write(o, doc);
    }

    private static JsonArray InputsJson(ArchiveRoute route) =>
        JsonOutput.Array(route.Patch.Changes, c => new JsonObject { ["entry"] = c.Key.ToString(), ["mod"] = c.Origin, ["rule"] = c.Rule, ["source"] = c.Input?.Path, ["delete"] = c.IsDelete });

    /// <summary>The archives inside entries that mods change inside (an FEF route into a PAK in a CPK), at every depth, each with its inputs.</summary>
    private static JsonArray NestedJson(ArchiveRoute route) => JsonOutput.Array(route.Nested, n => new JsonObject
    {
        ["entry"] = n.Entry.ToString(), ["route"] = n.Route.RelativePath, ["format"] = n.Route.Format.Name, ["origin"] = n.Origin,
        ["inputs"] = InputsJson(n.Route), ["nested"] = NestedJson(n.Route),
    });

    private static JsonObject ConflictJson(RouteConflict c) =>
        new() { ["target"] = c.Target, ["entry"] = c.Entry, ["mods"] = JsonOutput.Strings(c.Mods), ["winner"] = c.Winner, ["rules"] = JsonOutput.Strings(c.Rules) };

    /// <summary>"hd-textures (mirror), fef-mod (FEmulator/AFS/textures.afs)": each mod with the rule it used, when known.</summary>
    private static string ModsWithRules(RouteConflict c) =>
        string.Join(", ", c.Mods.Select((m, i) => i < c.Rules.Count ? $"{m} ({c.Rules[i]})" : m));
}
