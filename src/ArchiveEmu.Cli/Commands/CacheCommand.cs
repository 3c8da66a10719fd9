using System.CommandLine;
using System.Text.Json.Nodes;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cache ls|verify|gc|clear</c>: look after a merged file cache folder.</summary>
internal sealed class CacheCommand : ICommand
{
    public string Name => "cache";
    public string Usage => "archiveemu cache ls|verify|gc|clear [--cache DIR] [--max-age-days N] [--max-size N] [--json]";

    public Command Define(CliConsole console)
    {
        // --cache is given to "cache" and each action alike (archiveemu cache --cache DIR gc, archiveemu cache gc --cache DIR).
        var folder = new Option<string>("--cache") { Description = "The merged file cache folder (default: ~/.cache/archiveemu)", HelpName = "DIR", Recursive = true };
        var json = new Option<bool>("--json") { Description = "Write the listing as JSON on stdout" };
        var days = CliOptions.WholeNumber("--max-age-days", (int)MergedFileCache.DefaultMaxAge.TotalDays, 0, 36500, "Remove entries unused for more than N days");
        var maxSize = Sizes.Option("--max-size", "Then remove the least recently used entries until the rest take at most this size, such as 2G (none a live mount serves)");
        MergedFileCache Open(ParseResult parse) => GameArguments.OpenCache(parse.GetValue(folder), console);

        return new Command(Name, "Look after a merged file cache folder")
        {
            folder,
            new Command("ls", "List the cached archives: key, size, how they are stored, when last used") { json }
                .Runs(parse => List(Open(parse), parse.GetValue(json), console)),
            new Command("verify", "Check every entry against its checksums and drop damaged ones (exit 1 if any)")
                .Runs(parse => Verify(Open(parse), console)),
            new Command("gc", "Remove entries unused for --max-age-days or damaged, or over --max-size, and compact the packs") { days, maxSize }
                .Runs(parse => Collect(Open(parse), parse.GetValue(days), parse.GetValue(maxSize), console)),
            new Command("clear", "Remove every entry").Runs(parse => Clear(Open(parse), console)),
        };
    }

    private static int Verify(MergedFileCache cache, CliConsole console)
    {
        IReadOnlyList<VerifyResult> results;
        using (var bar = new ProgressBar(console, "", "verifying", "entries"))
            results = cache.Verify((done, total) => bar.Report(done, total));
        foreach (var r in results)
            console.Out.WriteLine($"{(r.Ok ? "ok     " : "DAMAGED")}  {r.Entry.Route}{(r.Ok ? "" : $": {r.Problem} (dropped)")}");
        int damaged = results.Count(r => !r.Ok);
        console.Out.WriteLine($"{results.Count} entries checked, {damaged} damaged");
        if (damaged > 0)
            console.Error.WriteLine($"archiveemu cache: {damaged} damaged entries in {cache.Folder} were dropped");
        return damaged > 0 ? 1 : 0;
    }

    private static int Collect(MergedFileCache cache, int days, long? maxBytes, CliConsole console)
    {
        var gc = cache.Collect(TimeSpan.FromDays(days), maxBytes);
        if (maxBytes is { } cap)
            console.Out.WriteLine($"removed {gc.Expired} entries unused for {days} days or damaged and {gc.OverCap} least recently used over {Units.Bytes(cap)}, "
                + $"kept {gc.Kept}; packs {Units.Bytes(gc.BytesBefore)} -> {Units.Bytes(gc.BytesAfter)}");
        else
            console.Out.WriteLine($"removed {gc.Expired} entries unused for {days} days or damaged, kept {gc.Kept}; packs {Units.Bytes(gc.BytesBefore)} -> {Units.Bytes(gc.BytesAfter)}");
        return 0;
    }

    private static int Clear(MergedFileCache cache, CliConsole console)
    {
        cache.Clear();
        console.Out.WriteLine($"cleared {cache.Folder}");
        return 0;
    }

    private static int List(MergedFileCache cache, bool json, CliConsole console)
    {
        var entries = cache.Entries();
        var (used, free) = cache.DiskUse();
        if (json)
        {
            var doc = new JsonObject
            {
                ["cache"] = cache.Folder,
                ["pack_bytes"] = cache.PackBytes(),
                ["disk_bytes"] = used,
                ["free_bytes"] = free,
                ["entries"] = JsonOutput.Array(entries, e => new JsonObject
                {
                    ["key"] = e.Key,
                    ["route"] = e.Route,
                    ["format"] = e.Format,
                    ["size"] = e.Length,
                    ["merged"] = e.Merged is not null,
                    ["compression"] = e.Merged?.Compression,
                    ["stored_bytes"] = e.Merged?.Chunks.Length,
                    ["created"] = e.CreatedUtc,
                    ["last_used"] = cache.LastUsed(e),
                }),
            };
            JsonOutput.Write(console.Out, doc);
            return 0;
        }
        console.Out.WriteLine($"{cache.Folder}: {entries.Count} entries, packs {Units.Bytes(cache.PackBytes())}; "
            + $"{Units.Bytes(used)} on disk in all, {(free is { } bytes ? Units.Bytes(bytes) : "unknown")} free beside it");
        foreach (var e in entries)
        {
            string stored = e.Merged is { } m ? $"merged {m.Compression} {Units.Bytes(m.Chunks.Length)}" : "layout only";
            console.Out.WriteLine($"  {e.Key[..12]}  {Units.Bytes(e.Length),10}  {stored,-22}  last used {cache.LastUsed(e):yyyy-MM-dd HH:mm}  {e.Route}");
        }
        return 0;
    }
}
