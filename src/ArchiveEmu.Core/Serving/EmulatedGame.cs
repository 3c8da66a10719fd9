using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// The modded game folder as a reader sees it: a targeted archive is served by <see cref="ArchiveServer"/>, a file a
/// mod overrides is the mod's file, anything else is the original, through the game's symlinks wherever they lead.
/// </summary>
internal sealed class EmulatedGame
{
    private readonly Lazy<ArchiveServer> _server;
    private readonly Lazy<CompressionDecision?> _compression;

    private EmulatedGame(GameSetup setup, RoutePlan plan, Lazy<CompressionDecision?>? compression = null)
    {
        Setup = setup;
        Plan = plan;
        _server = new Lazy<ArchiveServer>(() => new ArchiveServer(Plan.GameFolder, Plan.Mods, Cache, Setup.Pool, VerifyContent,
            Setup.ShownGameFolder is { } shown ? new ShownFolder(Plan.GameFolder, Path.GetFullPath(shown)) : null));
        _compression = compression ?? new Lazy<CompressionDecision?>(() =>
            Cache is null ? null : CompressionDecision.Make(Setup.Compression, Cache.Folder, Setup.CodecProbes));
    }

    /// <summary>Opens the modded game <paramref name="setup"/> describes: its mods resolved against the game folder as they are now.</summary>
    public static EmulatedGame Open(GameSetup setup)
    {
        ArgumentNullException.ThrowIfNull(setup);
        return new(setup, setup.ResolveRoutes());
    }

    /// <summary>The same game with its mods resolved again as they are now (after a mod changed), keeping the cache and options.</summary>
    public EmulatedGame Reload() => new(Setup, Setup.ResolveRoutes(walkAgain: true), _compression);

    /// <summary>What this game was opened from; <see cref="Reload"/> opens it again.</summary>
    public GameSetup Setup { get; }

    /// <summary>The routes the mods resolved to when this game was opened (a changed mod shows after <see cref="Reload"/>).</summary>
    public RoutePlan Plan { get; }

    /// <summary>The merged file cache to serve from when it holds a fresh entry; null serves by emulation only.</summary>
    internal MergedFileCache? Cache => Setup.Cache;

    /// <summary>Whether cache keys include xxHash3 of every input (for filesystems with coarse mtimes).</summary>
    public bool VerifyContent => Setup.VerifyContent;

    /// <summary>
    /// The codec this game's merged bytes are stored with and why, as <see cref="GameSetup.Compression"/> asks: decided on first
    /// use (auto probes the cache device), then kept by <see cref="Reload"/>; null without a cache.
    /// </summary>
    internal CompressionDecision? Compression => _compression.Value;

    /// <summary><see cref="Compression"/> if something asked for it already, else null: what a report says without deciding it.</summary>
    internal CompressionDecision? CompressionIfDecided => _compression.IsValueCreated ? _compression.Value : null;

    /// <summary>
    /// Gets each of <see cref="ServedArchive.Warnings"/> of what this game serves; <see cref="OpenFile"/> and <see cref="OpenArchive"/>
    /// then describe the archives they serve (a stored layout read even for a merged copy) to find them. Null: not looked for.
    /// </summary>
    public Action<string>? Warn => Setup.Warn;

    /// <summary>The serving layer for this game's routes.</summary>
    internal ArchiveServer Server => _server.Value;

    /// <summary>The cache key of <paramref name="route"/> as its files are now.</summary>
    internal CacheKey KeyOf(ArchiveRoute route) => Server.KeyOf(route);

    /// <summary>Serves <paramref name="route"/> as <paramref name="request"/> asks (<see cref="ArchiveServer.Serve"/>).</summary>
    internal ServedArchive Serve(ArchiveRoute route, ServeRequest request)
    {
        var served = Server.Serve(route, request);
        if (Warn is not null)
        {
            foreach (var warning in served.Warnings)
                Warn(warning);
        }
        return served;
    }

    /// <summary>
    /// The emulated archive at <paramref name="relativePath"/>: from the cache's stored layout when fresh
    /// (no parse of the original), otherwise built; with no mod touching it, the original as-is. The caller disposes it.
    /// </summary>
    public EmulatedArchive OpenArchive(string relativePath)
    {
        if (Plan.FindArchive(relativePath) is { } route)
            return Serve(route, new ServeRequest { KeepArchive = true, Describe = Warn is not null }).Archive!;
        return Setup.ArchiveAt(GamePaths.Parse(relativePath)).Build(Setup.Pool);
    }

    /// <summary>
    /// The route of the archive at <paramref name="relativePath"/>: the one mods and code inputs change, else the archive
    /// as the game ships it (a declared slice or a game file, detected); a missing file or an unknown format is an error.
    /// </summary>
    internal ArchiveRoute RouteOf(string relativePath) =>
        Plan.FindArchive(relativePath) ?? Setup.ArchiveAt(GamePaths.Parse(relativePath));

    /// <summary>The bytes a reader of the modded game folder sees at <paramref name="relativePath"/>. The caller disposes it.</summary>
    public VirtualFile OpenFile(string relativePath)
    {
        relativePath = GamePaths.Parse(relativePath); // as typed: ./data/x.afs is data/x.afs, modded
        var full = GamePaths.Resolve(Plan.GameFolder, relativePath);
        if (Plan.FindArchive(relativePath) is { } route)
            return Serve(route, new ServeRequest { OpenFile = true, Describe = Warn is not null }).File!;
        var source = Plan.FindOverride(relativePath)?.SourcePath ?? full;
        if (!GamePaths.FileExists(source))
            throw new FileNotFoundException(Directory.Exists(full) ? $"{full}: a folder; give a file in it"
                : $"{full}: not found in the game folder or any mod{GamePaths.DanglingLink(full)}", full);
        return new VirtualFileBuilder(Setup.Pool).AppendFile(source, 0, FileIdentity.Of(source).Length).Build();
    }

    /// <summary>Parses the original and builds the emulated archive, without the cache. The caller disposes it.</summary>
    public EmulatedArchive Build(ArchiveRoute route) => Server.Build(route);
}
