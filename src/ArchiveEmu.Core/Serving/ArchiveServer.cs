using System.Diagnostics;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// The one place that decides how an archive is served (docs/DESIGN.md, "Serving"): the stored layout or a
/// parse of the original, then merge or not, store, and open the merged copy, else emulate. The CLI, the
/// mount and the library API all serve through it and keep only their own concern (printing, FUSE, API shape).
/// </summary>
internal sealed class ArchiveServer
{
    private readonly FileHandlePool? _pool;
    private readonly Lazy<StorageKind> _storage;
    private readonly ShownFolder? _shown;

    /// <param name="gameFolder">The game folder (its storage kind explains merge decisions).</param>
    /// <param name="mods">Mod folders in priority order, as the cache key records them.</param>
    /// <param name="cache">The merged file cache, or null to serve by emulation only.</param>
    /// <param name="pool">The handle pool virtual files read through; null uses the shared one.</param>
    /// <param name="verifyContent">Whether cache keys include xxHash3 of every input.</param>
    /// <param name="shown">How the game folder is read when not by its own path (in place): keys and layouts name it by its own.</param>
    public ArchiveServer(string gameFolder, IReadOnlyList<string> mods, MergedFileCache? cache, FileHandlePool? pool = null, bool verifyContent = false,
        ShownFolder? shown = null)
    {
        _shown = shown;
        Mods = mods;
        Cache = cache;
        VerifyContent = verifyContent;
        _pool = pool;
        _storage = new Lazy<StorageKind>(() => StorageKind.Of(gameFolder));
    }

    public IReadOnlyList<string> Mods { get; }
    public MergedFileCache? Cache { get; }
    public bool VerifyContent { get; }

    /// <summary>The kind of storage under the game folder (looked up once).</summary>
    public StorageKind Storage => _storage.Value;

    /// <summary>The cache key of <paramref name="route"/> as its files are now.</summary>
    internal CacheKey KeyOf(ArchiveRoute route) => RouteKey.For(route, Mods, VerifyContent, _shown);

    /// <summary>
    /// A hash of everything <paramref name="route"/>'s bytes depend on, as its files are now (the cache key): equal
    /// versions mean equal bytes. Stats the original and every input.
    /// </summary>
    public string VersionOf(ArchiveRoute route) => KeyOf(route).Hash;

    /// <summary>The cache's merged copy of <paramref name="route"/> as its files are now, or null (no cache, not merged, or stale).</summary>
    public MergedExtent? FindMerged(ArchiveRoute route) => Cache?.Find(KeyOf(route))?.Merged;

    /// <summary>Parses the original and builds the emulated archive, without the cache. The caller disposes it.</summary>
    public EmulatedArchive Build(ArchiveRoute route) => route.Build(_pool);

    /// <summary>Serves <paramref name="route"/> as <paramref name="request"/> asks; see <see cref="ServedArchive"/> for what comes back.</summary>
    public ServedArchive Serve(ArchiveRoute route, ServeRequest request)
    {
        var clock = Stopwatch.StartNew();
        var key = Cache is null ? null : KeyOf(route);
        var entry = key is null ? null : Cache!.Find(key); // one key (stats, or hashes) and one index read per serve

        // The emulated archive is skipped only when the merged copy answers everything that was asked.
        bool needArchive = request.KeepArchive || request.Describe || request.Merge is not null || !request.OpenFile || entry?.Merged is null;
        var (archive, layout) = needArchive ? OpenArchive(route, request.Kept, ref entry) : (null, LayoutOrigin.None);
        var buildTime = clock.Elapsed;

        var decision = request.Merge is { } policy && archive is not null
            ? MergeDecider.Decide(policy, request.Thresholds, archive, Storage)
            : null;
        var outcome = Cache is null ? CacheOutcome.Off : entry is null ? CacheOutcome.Miss : CacheOutcome.Hit;
        var storeTime = TimeSpan.Zero;
        if (Cache is not null && request.Merge is not null && archive is not null)
        {
            bool storeMerged = decision!.Merge && entry?.Merged is null;
            bool storeLayout = entry is null; // none yet, or its layout was damaged and dropped
            if (storeMerged || storeLayout)
            {
                var storeClock = Stopwatch.StartNew();
                var compression = storeMerged && request.DecideCompression is { } decide ? decide() : request.Compression;
                try
                {
                    entry = Cache.Store(key!, archive, storeMerged, compression, request.Progress);
                    outcome = CacheOutcome.Stored;
                }
                catch (IOException e) when (CacheFolderAccess.IsFull(e))
                {
                    Cache.WarnFull(route.RelativePath); // the game is served all the same: a pack is a speed-up, never needed
                    outcome = CacheOutcome.Full;
                }
                storeTime = storeClock.Elapsed;
            }
        }

        var summary = request.Describe && archive is not null ? ArchiveSummary.Of(archive) : null;
        VirtualFile? file = null;
        var how = entry?.Merged is null ? ServedAs.Emulated : ServedAs.Merged;
        string reason = Explain(how, layout, outcome, decision);
        if (request.OpenFile)
        {
            file = entry?.Merged is null ? null : Cache!.TryOpenMerged(entry, () => Build(route).File);
            if (file is null)
            {
                if (how == ServedAs.Merged)
                    (how, reason) = (ServedAs.Emulated, "emulated (merged entry damaged)");
                if (archive is null)
                    (archive, layout) = OpenArchive(route, request.Kept, ref entry);
                // The caller owns what it gets: a second reference to the same segments when the archive is kept too.
                file = request.KeepArchive || layout == LayoutOrigin.Kept ? Copy(archive.File) : archive.File;
            }
        }
        if (archive is not null && layout != LayoutOrigin.Kept && !request.KeepArchive && !ReferenceEquals(file, archive.File))
            archive.Dispose(); // merged bytes and summaries need no handles on the inputs
        return new ServedArchive(route, how, reason, layout, decision, outcome, entry?.Merged, summary, buildTime, storeTime)
        {
            File = file,
            Archive = request.KeepArchive && layout != LayoutOrigin.Kept ? archive : null,
            Warnings = summary is null ? [] : ServedArchive.WarningsOf(route, summary),
        };
    }

    // The caller's archive, else the entry's stored layout (no parse of the original), else parsed. A damaged layout
    // drops its entry (the cache warns), so the entry is forgotten here too and a store writes it anew.
    private (EmulatedArchive, LayoutOrigin) OpenArchive(ArchiveRoute route, EmulatedArchive? kept, ref CacheEntry? entry)
    {
        if (kept is not null)
            return (kept, LayoutOrigin.Kept);
        if (entry is not null)
        {
            if (Cache!.TryOpenLayout(entry, _pool, _shown) is { } stored)
                return (stored, LayoutOrigin.Cache);
            entry = null;
        }
        return (Build(route), LayoutOrigin.Parsed);
    }

    private VirtualFile Copy(VirtualFile file) => new VirtualFileBuilder(_pool).AppendSlice(file, 0, file.Length).Build(); // segments, not bytes

    private static string Explain(ServedAs how, LayoutOrigin layout, CacheOutcome outcome, MergeDecision? decision)
    {
        string why = decision is null ? "" : $" ({decision.Reason})";
        if (how == ServedAs.Merged)
            return outcome == CacheOutcome.Stored ? $"merged, packed now{why}" : "merged, from cache";
        string source = layout switch
        {
            LayoutOrigin.Cache => "layout from cache",
            LayoutOrigin.Kept => "kept",
            _ => "parsed",
        };
        return outcome switch
        {
            CacheOutcome.Off => $"emulated, {source} (no cache)",
            CacheOutcome.Full => $"emulated, {source} (the cache's disk is full{(decision?.Merge == true ? "; not packed" : "")})",
            _ => $"emulated, {source}{why}",
        };
    }
}
