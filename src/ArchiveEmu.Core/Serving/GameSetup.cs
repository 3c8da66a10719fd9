using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.Serving.Plans;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// One description of a modded game, everything <see cref="EmulatedGame.Open"/> needs to serve it: the game folder, the mod
/// folders in priority order, the language, and how to serve them. It starts where the library starts, at folders: the
/// CLI and the host turn what the player has (a profile, a Reloaded-II setup, the language Steam records: <c>Machine/</c>)
/// into these, and the API takes them from a mod loader.
/// </summary>
/// <param name="GameFolder">The game folder, as shipped.</param>
/// <param name="ModFolders">Mod folders, lowest priority first (a later one wins an entry both touch).</param>
internal sealed record GameSetup(string GameFolder, IReadOnlyList<string> ModFolders)
{
    /// <summary>
    /// The folders of the mods loaded with <see cref="ModFolders"/> that serve no file (code only, such as a merging mod of a
    /// Reloaded-II setup): an entry merge may apply only while one is loaded, and read its files (docs/TABLES.md, bust-up parameters).
    /// </summary>
    internal IReadOnlyList<string> OtherLoadedMods { get; init; } = [];

    /// <summary>The merged file cache to serve from when it holds a fresh entry; null serves by emulation only.</summary>
    internal MergedFileCache? Cache { get; init; }

    /// <summary>
    /// The game folder's own path when <see cref="GameFolder"/> reads it through another (the host in place: <c>/proc/self/fd/N</c>);
    /// the merged file cache names archives by it, so every way of serving one game shares one entry per archive. Null: <see cref="GameFolder"/>.
    /// </summary>
    public string? ShownGameFolder { get; init; }

    /// <summary>Whether cache keys include xxHash3 of every input (for filesystems with coarse mtimes).</summary>
    public bool VerifyContent { get; init; }

    /// <summary>The pool of open handles the game's files are read through; null uses <see cref="FileHandlePool.Shared"/>.</summary>
    public FileHandlePool? Pool { get; init; }

    /// <summary>
    /// Where an inner archive stored compressed is decoded once and reused (<see cref="ModRouter.DecodeCacheFolder"/>);
    /// null: the cache's folder, or with no cache a private temporary file of this process.
    /// </summary>
    public string? DecodeFolder { get; init; }

    /// <summary>How merged bytes are stored: auto (the default) measures the cache device against LZ4 (<see cref="EmulatedGame.Compression"/> decides it once).</summary>
    public CompressionChoice Compression { get; init; } = CompressionChoice.Auto;

    /// <summary>What auto measures with; null measures this machine (tests give fixed figures).</summary>
    internal CodecProbes? CodecProbes { get; init; }

    /// <summary>Gets each warning about what the game serves (<see cref="EmulatedGame.Warn"/>); null: not looked for.</summary>
    public Action<string>? Warn { get; init; }

    /// <summary>Archives stored inside other game files, by route (<see cref="ArchiveEmulator.AddArchiveSlice"/> declares them).</summary>
    internal IReadOnlyDictionary<string, (ArchiveSource Source, IArchiveFormat Format)>? ArchiveSlices { get; init; }

    /// <summary>
    /// Inputs added in code (<see cref="ArchiveEmulator.AddFile"/> and the other Add methods), in the order added: the
    /// highest-priority layer, above every mod folder (<see cref="ModRouter.CodeInputs"/>).
    /// </summary>
    internal IReadOnlyList<CodeInput> CodeInputs { get; init; } = [];

    /// <summary>
    /// The mod folders already walked for this setup's <see cref="ModFolders"/> and <see cref="ArchiveSlices"/> (<see cref="WalkMods"/>),
    /// which a front keeps while only code inputs change; null walks them at <see cref="ResolveRoutes"/>.
    /// </summary>
    internal ModLayer? WalkedMods { get; init; }

    /// <summary>
    /// The language whose <c>FEmulator/L10N/&lt;id&gt;/</c> folders apply and where it came from; unset: en, saying so. The library
    /// never looks at the machine for it: the CLI and the host choose it (a setting, else Steam's record) and set it here.
    /// </summary>
    public LanguageChoice Language
    {
        get => _language ??= GameLanguage.Default("no language given");
        init => _language = value;
    }

    private LanguageChoice? _language;

    /// <summary>Finds a game file's format; null detects it each time (a front keeps them: <see cref="DetectedFormats"/>).</summary>
    internal Func<string, IArchiveFormat?>? Detect { get; init; }

    /// <summary>
    /// The routes of this setup's mods and code inputs as they are now; the one place a game's routes are resolved. The mod folders
    /// are walked unless <see cref="WalkedMods"/> holds them, or always with <paramref name="walkAgain"/> (a mod changed on disk).
    /// </summary>
    internal RoutePlan ResolveRoutes(bool walkAgain = false)
    {
        var router = Router();
        if (!walkAgain && WalkedMods is { } walked)
            return router.Resolve(walked);
        if (!KeepsPlans)
            return router.Resolve(router.WalkMods());
        // Kept in the cache folder when nothing the walk reads has changed (docs/DESIGN.md, "Route plans kept").
        var plans = new PlanStore(Cache!, Pool);
        var key = PlanKey.Of(router.GameFolder, router.ModFolders, Language.Id, router.DecodeCacheFolder, router.OtherLoadedMods);
        if (plans.Load(key) is { } kept)
            return kept;
        var plan = router.Resolve(router.WalkMods());
        if (StorePlan)
            plans.Store(key, plan);
        return plan;
    }

    /// <summary>
    /// Whether a resolve keeps its plan in <see cref="Cache"/>'s folder for the next start (docs/DESIGN.md, "Route plans kept"):
    /// set by fronts that write the cache (build, a mount that stores); a reader that only reads the cache (cat, ls) uses kept plans.
    /// </summary>
    internal bool StorePlan { get; init; }

    // Only mod folders and the game's files decide a plan here: inputs added in code and declared slices live in one process.
    private bool KeepsPlans => Cache is not null && CodeInputs.Count == 0 && (ArchiveSlices is null || ArchiveSlices.Count == 0);

    /// <summary>Walks this setup's mod folders as they are now, for <see cref="WalkedMods"/>.</summary>
    internal ModLayer WalkMods() => Router().WalkMods();

    /// <summary>The archive at <paramref name="route"/> as the game ships it: a declared slice or a game file (<see cref="GameArchives.At"/>).</summary>
    internal ArchiveRoute ArchiveAt(string route) => GameArchives.At(GameFolder, route, ArchiveSlices, Detect);

    internal ModRouter Router() =>
        new(GameFolder, ModFolders, Detect, ArchiveSlices)
        {
            DecodeCacheFolder = DecodeFolder ?? Cache?.Folder, CodeInputs = CodeInputs, Language = Language.Id, OtherLoadedMods = OtherLoadedMods,
        };
}
