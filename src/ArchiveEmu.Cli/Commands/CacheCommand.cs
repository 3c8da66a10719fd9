using System.Text.Json;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cache ls|verify|gc|clear</c>: look after a merged file cache folder.</summary>
internal sealed class CacheCommand : ICommand
{
    public string Name => "cache";
    public string Usage => "archiveemu cache ls|verify|gc|clear [--cache DIR] [--max-age-days N] [--json]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, ["cache", "max-age-days"], ["json"]);
        var action = cl.SinglePositional("action (ls, verify, gc or clear)");
        var cache = new MergedFileCache(cl.Value("cache") ?? MergedFileCache.DefaultFolder(),
            new CacheOptions(Warn: message => console.Error.WriteLine($"archiveemu: warning: {message}")));
        switch (action)
        {
            case "ls":
                return List(cache, cl.Flag("json"), console);
            case "verify":
                var results = cache.Verify();
                foreach (var r in results)
                    console.Out.WriteLine($"{(r.Ok ? "ok     " : "DAMAGED")}  {r.Entry.Route}{(r.Ok ? "" : $": {r.Problem} (dropped)")}");
                int damaged = results.Count(r => !r.Ok);
                console.Out.WriteLine($"{results.Count} entries checked, {damaged} damaged");
                if (damaged > 0)
                    console.Error.WriteLine($"archiveemu cache: {damaged} damaged entries in {cache.Folder} were dropped");
                return damaged > 0 ? 1 : 0;
            case "gc":
                int days = cl.Int("max-age-days", 14, 0, 36500);
                var gc = cache.Collect(TimeSpan.FromDays(days));
                console.Out.WriteLine($"removed {gc.Expired} entries unused for {days} days or damaged, kept {gc.Kept}; packs {Units.Bytes(gc.BytesBefore)} -> {Units.Bytes(gc.BytesAfter)}");
                return 0;
            case "clear":
                cache.Clear();
                console.Out.WriteLine($"cleared {cache.Folder}");
                return 0;
            default:
                throw new UsageException($"unknown cache action '{action}' (ls, verify, gc or clear)");
        }
    }

    private static int List(MergedFileCache cache, bool json, CliConsole console)
    {
        var entries = cache.Entries();
        if (json)
        {
            var doc = new
            {
                cache = cache.Folder,
                pack_bytes = cache.PackBytes(),
                entries = entries.Select(e => new
                {
                    key = e.Key,
                    route = e.Route,
                    format = e.Format,
                    size = e.Length,
                    merged = e.Merged is not null,
                    compression = e.Merged?.Compression,
                    stored_bytes = e.Merged?.Chunks.Length,
                    created = e.CreatedUtc,
                    last_used = cache.LastUsed(e),
                }),
            };
            console.Out.WriteLine(JsonSerializer.Serialize(doc, JsonOutput.Options));
            return 0;
        }
        console.Out.WriteLine($"{cache.Folder}: {entries.Count} entries, packs {Units.Bytes(cache.PackBytes())}");
        foreach (var e in entries)
        {
            string stored = e.Merged is { } m ? $"merged {m.Compression} {Units.Bytes(m.Chunks.Length)}" : "layout only";
            console.Out.WriteLine($"  {e.Key[..12]}  {Units.Bytes(e.Length),10}  {stored,-22}  last used {cache.LastUsed(e):yyyy-MM-dd HH:mm}  {e.Route}");
        }
        return 0;
    }
}
