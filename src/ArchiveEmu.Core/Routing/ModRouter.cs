using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Resolves mod folders against a game folder (docs/DESIGN.md, "Mod folders and routes"): a mod folder named
/// like a game file holds entries for that archive (and, through an entry that holds an archive, for that inner archive:
/// <see cref="ArchiveInside"/>), other files override game files whole; mods are
/// in priority order (a later one wins) and every conflict is reported. A mod path meets the game's whatever its letter
/// case and is served as the game spells it (<see cref="GameSpelling"/>). Nothing leads out of a mod; the game's own
/// symlinks are followed wherever they lead.
/// </summary>
internal sealed partial class ModRouter
{
    private readonly string _game;
    private readonly IReadOnlyList<string> _mods;

    /// <summary>The mod folders as full paths, lowest priority first.</summary>
    public IReadOnlyList<string> ModFolders => _mods;

    /// <summary>The game folder as a full path.</summary>
    public string GameFolder => _game;
    private readonly Func<string, IArchiveFormat?> _detect;
    private readonly IReadOnlyDictionary<string, (ArchiveSource Source, IArchiveFormat Format)> _slices;

    /// <param name="gameFolder">The game folder.</param>
    /// <param name="modFolders">Mod folders, lowest priority first.</param>
    /// <param name="detect">Finds an archive's format (default: <see cref="ArchiveFormats.Detect(string)"/>); null means "not an archive".</param>
    /// <param name="slices">Archives stored inside other game files, by route (e.g. "data/bgm.cpk/voice.awb"): a mod folder
    /// at that path holds entries for the inner archive, as for any other archive.</param>
    public ModRouter(string gameFolder, IReadOnlyList<string> modFolders, Func<string, IArchiveFormat?>? detect = null,
        IReadOnlyDictionary<string, (ArchiveSource Source, IArchiveFormat Format)>? slices = null)
    {
        _game = MissingFolder.Require(gameFolder, "game");
        _mods = modFolders.Select(m => MissingFolder.Require(m, "mod")).ToArray();
        _detect = detect ?? ArchiveFormats.Detect;
        _slices = slices ?? new Dictionary<string, (ArchiveSource, IArchiveFormat)>();
    }

    /// <summary>
    /// The merged file cache's folder, where an inner archive stored compressed (a ZIP entry deflated, a CPK entry
    /// CRILAYLA-compressed) is decoded once and reused by later resolves; null, or a folder that takes no file: a private
    /// temporary file of this process instead (docs/DESIGN.md, "Archives inside archives").
    /// </summary>
    public string? DecodeCacheFolder { get; init; }

    /// <summary>
    /// Inputs added in code (a mod loader's), in the order added: the highest-priority layer, applied after every mod folder,
    /// so they win their entries; a mod that touched one is a conflict, and followers follow them as they follow mods.
    /// </summary>
    internal IReadOnlyList<CodeInput> CodeInputs { get; init; } = [];

    /// <summary>
    /// The folders of the mods loaded with these that ArchiveEmu serves no file of (code only: a framework such as a merging mod,
    /// from a Reloaded-II setup), for the entry merges that apply only while one is loaded (<see cref="Merges"/>).
    /// </summary>
    internal IReadOnlyList<string> OtherLoadedMods { get; init; } = [];

    /// <summary>The registered entry merges as this router's resolves ask them, its mods loaded.</summary>
    internal RouteMerges Merges => _merges ??= new RouteMerges(_mods, OtherLoadedMods);

    private RouteMerges? _merges;

    /// <summary>The game's language, a Localisation Framework id ("en", "fr", "zh-Hans", …): which <c>FEmulator/L10N/&lt;lang&gt;</c> folders apply.</summary>
    public string Language { get; init; } = "en";

    /// <summary>The routes of the mod folders as they are now, with <see cref="CodeInputs"/> above them.</summary>
    public RoutePlan Resolve() => Resolve(WalkMods());

    /// <summary>Walks every mod folder in priority order: the layer <see cref="Resolve(ModLayer)"/> lays the code inputs over.</summary>
    public ModLayer WalkMods()
    {
        var walk = new Walker(this);
        foreach (var mod in _mods)
            walk.Mod(mod);
        var overrideConflicts = walk.Overrides.Conflicts.Select(c => new RouteConflict(c.Key, null, c.Mods, c.Mods[^1]) { Rules = c.Rules }).ToArray();
        return new ModLayer(walk.Archives, walk.Overrides.Values.ToArray(), overrideConflicts, walk.Warnings.ToArray(), walk.Decoded)
        {
            ModReports = walk.Reports.ToArray(),
            Localised = walk.Localised,
        };
    }

    /// <summary>
    /// The routes of <paramref name="mods"/> (walked by this router's <see cref="WalkMods"/> for the same mod folders and slices)
    /// with <see cref="CodeInputs"/> above them, nested routes and followers attached; <paramref name="mods"/> is left as it was.
    /// </summary>
    public RoutePlan Resolve(ModLayer mods)
    {
        var code = new CodeLayer(this, mods);
        foreach (var input in CodeInputs)
            code.Add(input);

        var warnings = mods.Warnings.ToList();
        var overrideConflicts = mods.OverrideConflicts.ToList();
        var overrides = mods.Overrides.Select(o => LanguageFolders.Localise(o, mods.Localised)).ToArray();
        var merges = new MergeOriginals(code.Archives.Values, mods.Localised, Language); // one merge per entry path across the archives
        var routes = FollowingRoutes.Attach(code.Archives.Values.Select(a => LanguageFolders.Localise(a.ToRoute(merges), mods.Localised)).ToArray(), overrides,
            overrideConflicts, warnings);
        foreach (var (input, notAnArchive) in code.FollowerInputs)
            routes = WithFollowerInput(routes, input, notAnArchive);
        return new RoutePlan(_game, _mods, routes, overrides, routes.SelectMany(r => r.Conflicts).Concat(overrideConflicts).ToArray(), warnings)
        {
            ModReports = mods.ModReports,
        };
    }

    /// <summary>
    /// The routes with <paramref name="input"/> given to the follower at its route (a file that is no archive on its own, such as an
    /// IMG v1 .dir, whose format then judges it); with no such follower, <paramref name="notAnArchive"/>.
    /// </summary>
    private static ArchiveRoute[] WithFollowerInput(ArchiveRoute[] routes, CodeInput input, ArchiveFormatException notAnArchive)
    {
        int at = Array.FindIndex(routes, r => r.RelativePath == input.Route);
        if (at < 0)
            throw notAnArchive;
        var route = routes[at];
        routes[at] = route with { Patch = new ArchivePatch([.. route.Patch.Changes, new EntryChange(input.Entry, input.Input, input.Origin)]) };
        return routes;
    }

    /// <summary>One <see cref="WalkMods"/>: the mods walked in order, each path spelled as the game spells it (<see cref="GameSpelling"/>).</summary>
    private sealed partial class Walker(ModRouter router)
    {
        private readonly GameSpelling _spelling = new(router._game, router._slices.Keys);
        private ArchiveLookalike? _lookalike; // made on first use, with the walk's own listings (Lookalike)
        private readonly DecodedEntries _decoded = new(router.DecodeCacheFolder);

        public DecodedEntries Decoded => _decoded;

        private ArchiveLookalike Lookalike => _lookalike ??= new ArchiveLookalike(router._game, _spelling.GameNames);
        private readonly Dictionary<string, string> _modTargets = new(StringComparer.Ordinal); // this mod's whole files, by target
        private string _modRoot = "", _modName = "", _rule = ModRules.Mirror;

        public Dictionary<string, ArchiveChanges> Archives { get; } = new(StringComparer.Ordinal);
        public OrderedChanges<string, FileOverride> Overrides { get; } = new(StringComparer.Ordinal);
        public List<string> Warnings { get; } = [];

        /// <summary>How each mod was read, in priority order.</summary>
        public List<ModReport> Reports { get; } = [];

        public void Mod(string modRoot)
        {
            (_modRoot, _modName) = (modRoot, ModName(modRoot));
            _modTargets.Clear();
            var layout = ReloadedModLayout.Read(modRoot);
            if (layout.Warning is { } warning)
                Warnings.Add(warning);
            if (layout.IsReloaded)
            {
                Reports.Add(ReloadedMod(layout)); // ModRouter.Reloaded.cs
                return;
            }
            _rule = ModRules.Mirror;
            Folder(modRoot, "", inGame: true, warned: false);
            Reports.Add(new ModReport(_modName, _modRoot, ModReport.MirrorLayout, _modTargets.Count > 0 || GamePaths.EntriesInside(modRoot, modRoot).Any(e => e.IsFolder)
                ? [ModRules.Mirror] : [], [], []));
        }

        /// <param name="relative">The folder's path as the game spells it ("" for the mod's root).</param>
        /// <param name="inGame">Whether the game has that folder (else every path below it is new).</param>
        /// <param name="warned">Whether a folder above was warned about as an archive look-alike (one warning is enough).</param>
        private void Folder(string folder, string relative, bool inGame, bool warned)
        {
            var entries = GamePaths.EntriesInside(_modRoot, folder).ToList();
            if (!inGame && !warned && ArchiveLookalike.LooksLikeArchive(relative, entries))
            {
                Warnings.Add(Lookalike.Warn(folder, relative));
                warned = true;
            }
            foreach (var (path, isFolder) in entries)
            {
                var (childRelative, childInGame) = _spelling.Child(relative, inGame, Path.GetFileName(path), path);
                if (isFolder && inGame && !childInGame && !warned && Lookalike.MistypesAnArchive(childRelative))
                {
                    Warnings.Add(Lookalike.Warn(path, childRelative));
                    ChildFolder(path, childRelative, childInGame, warned: true);
                }
                else if (isFolder)
                    ChildFolder(path, childRelative, childInGame, warned);
                else
                    WholeFile(path, childRelative);
            }
        }

        private void ChildFolder(string path, string childRelative, bool inGame, bool warned)
        {
            var slices = router._slices;
            string gamePath = GamePaths.Full(router._game, childRelative);
            bool gameFile = inGame && File.Exists(gamePath); // through the game's symlinks, wherever they lead
            if (slices.TryGetValue(childRelative, out var slice))
                SliceArchive(childRelative, slice).AddMod(_modRoot, _modName, path, _rule);
            else if (gameFile && slices.Keys.Any(k => k.StartsWith(childRelative + "/", StringComparison.Ordinal)))
                Folder(path, childRelative, inGame, warned); // a container: the archives inside it are routes of their own
            else if (gameFile)
            {
                if (GamePaths.DanglingLink(gamePath) is { Length: > 0 } nowhere)
                    throw new FileNotFoundException($"{gamePath}{nowhere}: mod folder {path} targets it", gamePath);
                ArchiveFor(childRelative, () => new ArchiveChanges(childRelative, gamePath, router._detect(gamePath) ?? throw new ArchiveFormatException(gamePath, 0,
                    $"mod folder {path} targets it, but it is " + ArchiveFormats.NotKnown(gamePath)), _decoded, router.Merges)).AddMod(_modRoot, _modName, path, _rule);
            }
            else
                Folder(path, childRelative, inGame, warned);
        }

        private void WholeFile(string path, string childRelative)
        {
            if (!_modTargets.TryAdd(childRelative, path))
                throw new IOException($"{path}: targets {childRelative}, as {_modTargets[childRelative]} in the same mod does "
                    + "(they differ only in letter case); the mod is ambiguous, keep one of them");
            Overrides.Set(childRelative, new FileOverride(childRelative, Path.GetFullPath(path), _modName) { Rule = _rule }, _modName, _rule);
        }

        /// <summary>The changes to an archive stored inside another game file (a slice), created on first use.</summary>
        private ArchiveChanges SliceArchive(string relative, (ArchiveSource Source, IArchiveFormat Format) slice) =>
            ArchiveFor(relative, () => new ArchiveChanges(relative, slice.Source.Path, slice.Format, _decoded, router.Merges, slice.Source));

        private ArchiveChanges ArchiveFor(string relative, Func<ArchiveChanges> create)
        {
            if (!Archives.TryGetValue(relative, out var changes))
                Archives[relative] = changes = create();
            return changes;
        }
    }

    /// <summary>
    /// One resolve's inputs added in code over a walked <see cref="ModLayer"/>: an archive the mods change is copied before its first
    /// input (the layer stays as walked), an archive no mod changes is found at its route (a declared slice or a game file).
    /// </summary>
    private sealed class CodeLayer(ModRouter router, ModLayer mods)
    {
        private readonly HashSet<string> _copied = new(StringComparer.Ordinal);

        public Dictionary<string, ArchiveChanges> Archives { get; } = new(mods.Archives, StringComparer.Ordinal);

        /// <summary>Inputs added in code for a game file that is no archive on its own, each with why.</summary>
        public List<(CodeInput Input, ArchiveFormatException NotAnArchive)> FollowerInputs { get; } = [];

        /// <summary>Adds an input added in code to the archive at its route (a declared slice or a game file), above every mod.</summary>
        public void Add(CodeInput input)
        {
            if (!Archives.TryGetValue(input.Route, out var changes))
            {
                ArchiveRoute at;
                try
                {
                    at = GameArchives.At(router._game, input.Route, router._slices, router._detect);
                }
                catch (ArchiveFormatException notAnArchive)
                {
                    FollowerInputs.Add((input, notAnArchive)); // perhaps a follower, known once followers are attached
                    return;
                }
                Archives[input.Route] = changes = new ArchiveChanges(input.Route, at.GamePath, at.Format, mods.Decoded, router.Merges, at.Slice);
                _copied.Add(input.Route);
            }
            else if (_copied.Add(input.Route))
                Archives[input.Route] = changes = changes.Copy();
            changes.AddInput(input);
        }
    }

    private static string ModName(string modFolder) => Path.GetFileName(modFolder.TrimEnd(Path.DirectorySeparatorChar));
}
