using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Mount;
using ArchiveEmu.Host.Requests;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host;

/// <summary>
/// Serves the modded game folder at the mount point while the host runs: mounts in <see cref="StartAsync"/>
/// (a failure stops the host before it reports started), watches the mod folders for hot reload, and on
/// Ctrl+C/SIGTERM (the host's lifetime) unmounts and logs per-archive read statistics.
/// </summary>
/// <param name="options">The mount's own settings (where, how FUSE is spoken, threads, read-ahead…).</param>
/// <param name="served">The game and how it is served: a command's request over the host's settings, or the settings alone.</param>
internal sealed class MountService(MountOptions options, GameRequest served, IHostApplicationLifetime lifetime, ILogger<MountService> logger) : IHostedService
{
    private static readonly TimeSpan StopWait = TimeSpan.FromSeconds(3);

    private ModdedGameFileSystem? _fs;
    private IMountSession? _mount;
    private ModFolderWatcher? _watcher;
    private readonly CancellationTokenSource _stopping = new();
    private Thread? _buildAhead;
    private MergedFileCache? _cache;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var mountPoint = options.ServedAt;
        var serving = served.Serving;
        var cache = RequestedCache.Open(serving.NoCache, serving.Cache,
            new CacheOptions(Warn: message => logger.LogWarning("cache: {Message}", message), RecordsLiveUse: true));
        _cache = cache;
        bool storing = cache is not null && CanStore(cache); // before anything is logged: a refusal stays one line
        // Handles with FADV_RANDOM: the host reads what the kernel asks for and no more. The kernel's read-ahead of the mounted
        // file (per open, as for a plain file) already decided how much that is; the disk's read-ahead on top of it read
        // 1.5x the plain file's bytes for a game's loader, and what a stream needs beyond it is brought in (ReadRun). Issue 47.
        // What the kernel reads ahead for a plain file on the game's disk bounds what the mount (root raises its read-ahead,
        // below) and the host read ahead; the mount's window sets how long a run must be before the host reads ahead too.
        long? diskReadAhead = ReadAhead.OfDiskUnder(options.GameSource);
        int mountReadAheadKb = (int)Math.Min(options.ReadAheadKb, (diskReadAhead ?? long.MaxValue) / 1024);
        var streaming = PageCacheStreaming.ForVirtualFiles.ForMountReadAhead(options.RaisesReadAhead ? Math.Max(mountReadAheadKb * 1024L, ReadAhead.DefaultBytes) : ReadAhead.DefaultBytes);
        if (diskReadAhead is { } disk)
            streaming = streaming with { ShortRunAheadBytes = Math.Min(streaming.ShortRunAheadBytes, disk) };
        var pool = new FileHandlePool(1024, FileOptions.RandomAccess) { Streaming = options.BringIn ? streaming : streaming with { BringsIn = false } };
        // Steam's record of the language is looked up from the game folder as named, never through the in-place handle.
        var setup = served.Setup(cache, message => logger.LogWarning("{Message}", message)) with
        {
            GameFolder = options.GameSource, Pool = pool, StorePlan = storing,
            ShownGameFolder = options.GameHandle?.Folder, // in place: the cache names the game by its own path, as a build does
        };
        var game = EmulatedGame.Open(setup);
        var plan = game.Plan;
        foreach (var warning in plan.Warnings)
            logger.LogWarning("{Message}", warning);
        // Nothing is merged without storing or with merge never; else decided on the first merge (auto measures the device and LZ4).
        var compression = storing && serving.Policy != MergePolicy.Never ? new Lazy<ChunkCompression>(() => Compression(game)) : null;
        var builder = new ArchiveBuilder(serving.Policy, MergeThresholds.Default, () => compression?.Value ?? ChunkCompression.None, storing, logger,
            options.Clone && options.Passthrough);
        var fs = _fs = new ModdedGameFileSystem(game, builder, logger, serving.IgnoreCase == true);
        // The game stats and opens its archives as it starts: build them from now on, beside the watcher and the mount starting.
        _buildAhead = new Thread(() =>
        {
            fs.BuildAhead(_stopping.Token);
            if (storing && !_stopping.IsCancellationRequested) // once what the game opens first is built and recorded as in use
                KeepUnderCap(cache!);
        }) { IsBackground = true, Name = "build ahead", Priority = ThreadPriority.BelowNormal };
        _buildAhead.Start();

        ModFolderWatcher? watcher = null;
        try
        {
            watcher = _watcher = new ModFolderWatcher(plan.Mods, TimeSpan.FromMilliseconds(options.ReloadDebounceMs),
                () => fs.Reload(() => watcher!.Changes),
                message => logger.LogWarning("{Message}", message)); // before mounting: if inotify is exhausted, nothing is left mounted
            _mount = options.UsesKernelProtocol
                ? Fuse.Kernel.KernelMount.Start(fs, mountPoint, options.Passthrough, (int)options.Threads, logger, options.AllowOthers)
                : FuseMount.Start(fs, mountPoint, MountArguments() + (options.AllowOthers ? ",allow_other" : ""), options.Threads);
        }
        catch
        {
            _stopping.Cancel();
            _buildAhead.Join(StopWait);
            watcher?.Dispose();
            throw;
        }
        _mount.OnEndedUnexpectedly(code =>
        {
            if (code == 0) // the kernel ended the session: someone unmounted it, the usual way to stop a mount run in the background
                logger.LogInformation("the mount at {MountPoint} was unmounted from outside (archiveemu unmount, fusermount3 -u or umount); stopping", options.ShownAt);
            else
                logger.LogWarning("the mount at {MountPoint} went away (fuse loop ended with {Code}); stopping", options.ShownAt, code);
            lifetime.StopApplication();
        });
        fs.Invalidate = _mount.Invalidate;
        fs.MountIsUp(_mount is Fuse.Kernel.KernelMount { PassesThrough: true });
        if (options.RaisesReadAhead && mountReadAheadKb > ReadAhead.DefaultBytes / 1024 && ReadAhead.TrySet(mountPoint, mountReadAheadKb) is { } why)
            logger.LogDebug("kernel read-ahead left at its default ({Why})", why);
        // What a player needs first: the mods, what they change, and where the log is; how it is served is detail.
        logger.LogInformation("mounted {Game} with {Mods} mod(s) at {MountPoint}, read-only: {ModNames}; {Archives} archive(s) changed{ArchiveNames}, {Overrides} file override(s){Log}",
            plan.GameFolder, plan.Mods.Count, options.InPlace ? "the game folder itself" : options.ShownAt, Listed(plan.Mods.Select(Path.GetFileName)),
            plan.Archives.Count, plan.Archives.Count == 0 ? "" : $" ({Listed(plan.Archives.Select(a => a.RelativePath))})", plan.Overrides.Count,
            options.LogFile is { } log ? $"; the log is {log}" : "");
        logger.LogInformation(LogDetail.Event, "mount detail: cache {Cache}, merge {Merge}; {Fuse}{IgnoreCase}",
            cache is null ? "off" : storing ? cache.Folder : $"{cache.Folder} (read only)", serving.Policy.Word(), _mount.Describe(),
            serving.IgnoreCase == true ? "; names found whatever their case" : "");
        logger.LogInformation("language: {Language}", setup.Language);
        foreach (var notApplied in plan.NotApplied) // once per mount: what the mods hold that a file server cannot apply
            logger.LogInformation("not applied: {Line}", notApplied.Line);
        foreach (var conflict in plan.Conflicts)
            logger.LogInformation("conflict: {Target}{Entry} is set by {Mods}; {Winner} wins", conflict.Target,
                conflict.Entry is null ? "" : $" entry {conflict.Entry}", string.Join(", ", conflict.Mods), conflict.Winner);
        MergedTableLog.Write(logger, plan);
        return Task.CompletedTask;
    }

    /// <summary>Names for one line: the first <paramref name="shown"/>, then how many more.</summary>
    private static string Listed(IEnumerable<string?> names, int shown = 10)
    {
        var all = names.ToList();
        return string.Join(", ", all.Take(shown)) + (all.Count > shown ? $", … and {all.Count - shown} more" : "");
    }

    /// <summary>The cache's gc when its packs take more than <see cref="MountOptions.CacheMaxSize"/> (entries this mount serves stay), logged.</summary>
    private void KeepUnderCap(MergedFileCache cache)
    {
        try
        {
            if (cache.KeepUnder(options.CacheMaxSize) is { } gc)
                logger.LogInformation(LogDetail.Event, "cache over {Cap}: removed {OverCap} least recently used entries and {Expired} unused or damaged, kept {Kept}; packs {Before} -> {After}",
                    Units.Bytes(options.CacheMaxSize), gc.OverCap, gc.Expired, gc.Kept, Units.Bytes(gc.BytesBefore), Units.Bytes(gc.BytesAfter));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("cache: could not keep it under {Cap} ({Problem})", Units.Bytes(options.CacheMaxSize), e.Message);
        }
    }

    /// <summary>The codec of the archives this mount merges, decided once, on the first merge (auto probes the cache device unless remembered), and why, logged.</summary>
    private ChunkCompression Compression(EmulatedGame game)
    {
        var decision = game.Compression!;
        logger.LogInformation(LogDetail.Event, "compression: {Reason}", decision.Reason);
        return decision.Compression;
    }

    /// <summary>
    /// Whether the mount may store into the cache. A folder it cannot write is said once and then only read (its valid
    /// entries served, the rest emulated); before this check every stat of an archive waited two minutes on the writer
    /// lock, then failed. With merge always, storing is the point: refused with one line.
    /// </summary>
    private bool CanStore(MergedFileCache cache)
    {
        if (RequestedCache.WhyNotStoring(cache) is not { } why)
            return true;
        if (served.Serving.Policy == MergePolicy.Always)
            throw new IOException($"{why}; --merge always stores into it: give a writable folder with --cache DIR, or drop --merge always");
        logger.LogWarning("{Why}; serving the entries already in it, storing nothing, the rest by emulation", why);
        return false;
    }

    // ro + default_permissions: the kernel refuses writes (EROFS) and checks modes itself. Attribute and entry
    // caching is short for pass-through files the host does not watch; a hot reload invalidates the paths it changes.
    private static string MountArguments() =>
        "ro,default_permissions,fsname=archiveemu,subtype=archiveemu,attr_timeout=5,entry_timeout=5,negative_timeout=0";

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _stopping.Cancel();
        _buildAhead?.Join(StopWait); // a build under way ends before the snapshot it builds into is disposed
        _stopping.Dispose();
        _watcher?.Dispose();
        if (_mount is not null)
        {
            bool ended = _mount.Stop(StopWait);
            if (ended)
                logger.LogInformation("unmounted {MountPoint}", options.ShownAt);
            else
                logger.LogWarning("unmounted {MountPoint} lazily; a process still had it busy after {Seconds} s", options.ShownAt, StopWait.TotalSeconds);
        }
        _fs?.LogStatistics();
        _fs?.Dispose();
        _cache?.EndLiveUse(); // what it served may go in another process's capped gc
        return Task.CompletedTask;
    }
}
