using System.Diagnostics;
using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu build</c>: resolves every route and builds every targeted archive, reporting per
/// archive what changed, the conflicts, the sizes, where the bytes come from, and how long it took.
/// </summary>
internal sealed class BuildCommand : ICommand
{
    public string Name => "build";
    public string Usage => "archiveemu build --game DIR --mod DIR [--mod DIR…] [--json]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, GameArguments.ValueOptions, ["json"]);
        if (cl.Positionals.Count > 0)
            throw new UsageException($"unexpected argument '{cl.Positionals[0]}'");
        var clock = Stopwatch.StartNew();
        var game = GameArguments.Resolve(cl);
        double routeMs = clock.Elapsed.TotalMilliseconds;

        var reports = game.Plan.Archives.Select(route => BuildOne(game, route)).ToArray();
        if (cl.Flag("json"))
            WriteJson(console, game.Plan, reports, routeMs);
        else
            WriteText(console, game.Plan, reports, routeMs);
        return 0;
    }

    private static ArchiveReport BuildOne(EmulatedGame game, ArchiveRoute route)
    {
        var clock = Stopwatch.StartNew();
        using var archive = game.OpenArchive(route.RelativePath);
        double ms = clock.Elapsed.TotalMilliseconds;
        return new ArchiveReport(route, archive.Original.Identity.Length, archive.File.Length,
            archive.Count(EntryState.Replaced), archive.Count(EntryState.Added), archive.Count(EntryState.Deleted),
            archive.BytesFromOriginal, archive.BytesFromLooseFiles, archive.BytesGenerated, ms);
    }

    private static void WriteText(CliConsole console, RoutePlan plan, ArchiveReport[] reports, double routeMs)
    {
        console.Out.WriteLine($"routes resolved in {routeMs:F1} ms: {reports.Length} archives, {plan.Overrides.Count} whole-file overrides");
        foreach (var r in reports)
        {
            console.Out.WriteLine($"{r.Route.RelativePath}  ({r.Route.Format.Name})");
            console.Out.WriteLine($"  entries    {r.Replaced} replaced, {r.Added} added, {r.Deleted} deleted");
            console.Out.WriteLine($"  size       {r.SizeBefore} -> {r.SizeAfter} bytes");
            console.Out.WriteLine($"  bytes      {r.FromOriginal} from the original, {r.FromLoose} from loose files, {r.Generated} rebuilt header/padding");
            console.Out.WriteLine($"  built in   {r.BuildMs:F1} ms");
            foreach (var c in r.Route.Conflicts)
                console.Out.WriteLine($"  conflict   entry {c.Entry}: {string.Join(", ", c.Mods)} -> {c.Winner} wins");
        }
        foreach (var o in plan.Overrides)
            console.Out.WriteLine($"{o.RelativePath}  (whole file from {o.Mod})");
        foreach (var c in plan.Conflicts.Where(c => c.Entry is null))
            console.Out.WriteLine($"  conflict   {c.Target}: {string.Join(", ", c.Mods)} -> {c.Winner} wins");
    }

    private static void WriteJson(CliConsole console, RoutePlan plan, ArchiveReport[] reports, double routeMs)
    {
        var doc = new
        {
            route_ms = routeMs,
            archives = reports.Select(r => new
            {
                path = r.Route.RelativePath,
                format = r.Route.Format.Name,
                replaced = r.Replaced,
                added = r.Added,
                deleted = r.Deleted,
                size_before = r.SizeBefore,
                size_after = r.SizeAfter,
                bytes_from_original = r.FromOriginal,
                bytes_from_loose = r.FromLoose,
                bytes_generated = r.Generated,
                build_ms = r.BuildMs,
                conflicts = r.Route.Conflicts.Select(ConflictJson),
            }),
            overrides = plan.Overrides.Select(o => new { path = o.RelativePath, source = o.SourcePath, mod = o.Mod }),
            conflicts = plan.Conflicts.Select(ConflictJson),
        };
        console.Out.WriteLine(JsonSerializer.Serialize(doc, JsonOutput.Options));
    }

    private static object ConflictJson(RouteConflict c) => new { target = c.Target, entry = c.Entry, mods = c.Mods, winner = c.Winner };

    private sealed record ArchiveReport(ArchiveRoute Route, long SizeBefore, long SizeAfter, int Replaced, int Added, int Deleted,
        long FromOriginal, long FromLoose, long Generated, double BuildMs);
}
