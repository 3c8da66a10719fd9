using System.Text.Json.Nodes;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// The merged Persona tables in build's report and in ls (docs/TABLES.md): per table the mods and how many fields each
/// gave, every field several mods changed (Essentials only logs a line per merge), and what was not applied.
/// </summary>
internal static class TableReport
{
    /// <summary>Conflicts shown per table in text; the JSON lists them all.</summary>
    internal const int ConflictLines = 10;

    /// <summary>Per table a line naming it, a line of the mods with their field counts, its conflicts (capped), then what was not applied.</summary>
    public static void WriteText(TextWriter o, RoutePlan plan)
    {
        foreach (var table in MergedEntryReports.Of(plan))
        {
            var (path, report) = table;
            o.WriteLine($"{path}  (merged table{AlsoIn(table)})");
            if (report.Mods.Count > 0)
                o.WriteLine($"  mods       {string.Join(", ", report.Mods.Select(m => $"{m.Mod} {Fields(m.Fields)}"))}");
            foreach (var c in report.Conflicts.Take(ConflictLines))
                o.WriteLine($"  conflict   {Conflict(c)}");
            if (report.Conflicts.Count > ConflictLines)
                o.WriteLine($"  conflict   and {report.Conflicts.Count - ConflictLines} more (build --json or ls {path} lists them all)");
            foreach (var n in report.NotApplied)
                o.WriteLine($"  not applied  {n}");
        }
    }

    /// <summary>The build JSON's <c>tables</c>: path, the CPK whose copy was the original, mods with fields, every conflict, and the lines not applied.</summary>
    public static JsonArray Json(RoutePlan plan) => JsonOutput.Array(MergedEntryReports.Of(plan), t => new JsonObject
    {
        ["path"] = t.Path,
        ["original"] = t.Report.Original,
        ["bound_in"] = JsonOutput.Strings(t.BoundIn),
        ["mods"] = JsonOutput.Array(t.Report.Mods, m => new JsonObject { ["mod"] = m.Mod, ["fields"] = m.Fields }),
        ["conflicts"] = JsonOutput.Array(t.Report.Conflicts, ConflictJson),
        ["not_applied"] = JsonOutput.Strings(t.Report.NotApplied),
    });

    /// <summary>
    /// ls of a merged table's path through its archive: its segments (index, data offset and length in the merged file, the
    /// mods that changed it) and its conflicts. False when <paramref name="target"/> names no merged table.
    /// </summary>
    public static bool TryList(RoutePlan plan, string target, bool json, TextWriter o)
    {
        if (MergedEntryReports.Find(plan, target) is not { } table)
            return false;
        var (path, report) = table;
        if (json)
        {
            var doc = new JsonObject
            {
                ["table"] = path,
                ["original"] = report.Original,
                ["bound_in"] = JsonOutput.Strings(table.BoundIn),
                ["mods"] = JsonOutput.Array(report.Mods, m => new JsonObject { ["mod"] = m.Mod, ["fields"] = m.Fields, ["fields_kept"] = m.FieldsWon }),
                ["segments"] = JsonOutput.Array(report.Segments, s => new JsonObject { ["index"] = s.Index, ["offset"] = s.Offset, ["length"] = s.Length, ["mods"] = JsonOutput.Strings(s.Mods) }),
                ["conflicts"] = JsonOutput.Array(report.Conflicts, ConflictJson),
                ["not_applied"] = JsonOutput.Strings(report.NotApplied),
            };
            JsonOutput.Write(o, doc);
            return true;
        }
        var segments = report.Segments.Count == 1 ? "1 segment" : $"{report.Segments.Count} segments";
        var conflicts = report.Conflicts.Count == 1 ? "1 conflict" : $"{report.Conflicts.Count} conflicts";
        o.WriteLine($"{path}  merged table{AlsoIn(table)}  {segments}  {conflicts}");
        foreach (var m in report.Mods)
            o.WriteLine($"mod      {m.Mod}: {Fields(m.Fields)} changed, {m.FieldsWon} kept");
        o.WriteLine($"{"segment",7}  {"offset",10}  {"length",10}  mods");
        foreach (var s in report.Segments)
            o.WriteLine($"{s.Index,7}  {s.Offset,10}  {s.Length,10}  {(s.Mods.Count == 0 ? "-" : string.Join(", ", s.Mods))}");
        foreach (var c in report.Conflicts)
            o.WriteLine($"conflict {Conflict(c)}");
        foreach (var n in report.NotApplied)
            o.WriteLine($"not applied  {n}");
        return true;
    }

    private static JsonObject ConflictJson(MergeConflict c) =>
        new() { ["segment"] = c.Segment, ["offset"] = c.Offset, ["width"] = c.Width, ["mods"] = JsonOutput.Strings(c.Mods), ["winner"] = c.Winner };

    private static string Conflict(MergeConflict c) =>
        $"segment {c.Segment} offset {c.Offset} width {c.Width}: {string.Join(", ", c.Mods)} -> {c.Winner} wins";

    // The other CPKs serving this one merge, made from the named CPK's copy of the table (docs/TABLES.md, "In routing").
    private static string AlsoIn(BoundMerge table) => table.BoundIn.Count > 1 ? $", also served in {string.Join(", ", table.BoundIn.Skip(1))}" : "";

    private static string Fields(int count) => count == 1 ? "1 field" : $"{count} fields";
}
