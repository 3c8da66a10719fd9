using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// The modded game folder as a reader sees it: a targeted archive is served by <see cref="ArchiveServer"/>, a file a
/// mod overrides is the mod's file, anything else is the original, through the game's symlinks wherever they lead.
/// </summary>
public sealed class EmulatedGame
{
    private readonly FileHandlePool? _pool;
    private readonly Lazy<ArchiveServer> _server;

    public EmulatedGame(RoutePlan plan, FileHandlePool? pool = null)
    {
        Plan = plan;
        _pool = pool;
        _server = new Lazy<ArchiveServer>(() => new ArchiveServer(Plan.GameFolder, Plan.Mods, Cache, _pool, VerifyContent));
    }

    /// <summary>Resolves the mods in <paramref name="modFolders"/> (lowest priority first) against <paramref name="gameFolder"/>.</summary>
    public static EmulatedGame Resolve(string gameFolder, IReadOnlyList<string> modFolders, FileHandlePool? pool = null) =>
        new(new ModRouter(gameFolder, modFolders).Resolve(), pool);

    public RoutePlan Plan { get; }

    /// <summary>The merged file cache to serve from when it holds a fresh entry; null serves by emulation only.</summary>
    internal MergedFileCache? Cache { get; init; }

    /// <summary>Whether cache keys include xxHash3 of every input (for filesystems with coarse mtimes).</summary>
    public bool VerifyContent { get; init; }

    /// <summary>
    /// Gets each <see cref="ServedArchive.Warning"/> of what this game serves; <see cref="OpenFile"/> and <see cref="OpenArchive"/>
    /// then describe the archives they serve (a stored layout read even for a merged copy) to find them. Null: not looked for.
    /// </summary>
    public Action<string>? Warn { get; init; }

    /// <summary>The serving layer for this game's routes.</summary>
    internal ArchiveServer Server => _server.Value;

    /// <summary>The cache key of <paramref name="route"/> as its files are now.</summary>
    internal CacheKey KeyOf(ArchiveRoute route) => Server.KeyOf(route);

    /// <summary>Serves <paramref name="route"/> as <paramref name="request"/> asks (<see cref="ArchiveServer.Serve"/>).</summary>
    internal ServedArchive Serve(ArchiveRoute route, ServeRequest request)
    {
        var served = Server.Serve(route, request);
        if (Warn is not null && served.Warning is { } warning)
            Warn(warning);
        return served;
    }

    /// <summary>
    /// The emulated archive at <paramref name="relativePath"/>: from the cache's stored layout when fresh
    /// (no parse of the original), otherwise built; with no mod touching it, the original as-is. The caller disposes it.
    /// </summary>
    public EmulatedArchive OpenArchive(string relativePath)
    {
        var full = GamePaths.Resolve(Plan.GameFolder, relativePath);
        if (Plan.FindArchive(relativePath) is { } route)
            return Serve(route, new ServeRequest { KeepArchive = true, Describe = Warn is not null }).Archive!;
        if (!GamePaths.FileExists(full))
            throw new FileNotFoundException($"{full}: not found in the game folder{GamePaths.DanglingLink(full)}", full);
        var index = ArchiveFormats.ReadIndex(full);
        return index.Format.Build(index, ArchivePatch.Empty, _pool);
    }

    /// <summary>The bytes a reader of the modded game folder sees at <paramref name="relativePath"/>. The caller disposes it.</summary>
    public VirtualFile OpenFile(string relativePath)
    {
        var full = GamePaths.Resolve(Plan.GameFolder, relativePath);
        if (Plan.FindArchive(relativePath) is { } route)
            return Serve(route, new ServeRequest { OpenFile = true, Describe = Warn is not null }).File!;
        var source = Plan.FindOverride(relativePath)?.SourcePath ?? full;
        if (!GamePaths.FileExists(source))
            throw new FileNotFoundException($"{full}: not found in the game folder or any mod{GamePaths.DanglingLink(full)}", full);
        return new VirtualFileBuilder(_pool).AppendFile(source, 0, FileIdentity.Of(source).Length).Build();
    }

    /// <summary>Parses the original and builds the emulated archive, without the cache. The caller disposes it.</summary>
    public EmulatedArchive Build(ArchiveRoute route) => Server.Build(route);
}
