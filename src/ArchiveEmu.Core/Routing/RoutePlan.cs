using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Routing;

/// <summary>Several mods touched one entry (or file); the last of them in priority order won.</summary>
/// <param name="Target">The archive or file, relative to the game folder, with '/' separators.</param>
/// <param name="Entry">The entry (index or name), or null for a whole-file override.</param>
/// <param name="Mods">Every mod that touched it, in priority order.</param>
/// <param name="Winner">The mod whose version is used.</param>
internal sealed record RouteConflict(string Target, string? Entry, IReadOnlyList<string> Mods, string Winner)
{
    /// <summary>The rule each of <see cref="Mods"/> used, in the same order ("mirror", "Redirector", "FEmulator/AFS/Sound.afs", …); empty when not known.</summary>
    public IReadOnlyList<string> Rules { get; init; } = [];
}

/// <summary>An archive of the game folder that mods change, and the resolved changes.</summary>
/// <param name="RelativePath">Relative to the game folder, '/' separators.</param>
/// <param name="GamePath">Full path of the original archive (for an archive inside another file, of that file).</param>
/// <param name="Slice">Set when the original is a slice of <paramref name="GamePath"/> (an archive stored inside another); null for the whole file.</param>
internal sealed record ArchiveRoute(string RelativePath, string GamePath, IArchiveFormat Format, ArchivePatch Patch, IReadOnlyList<RouteConflict> Conflicts,
    ArchiveSource? Slice = null) : IFollowedRoute
{
    /// <summary>Reads and validates the original's index: the whole file, or the slice (for a follower, as its format reads it: <see cref="Follows"/>).</summary>
    public ArchiveIndex ReadOriginal() => Following is { } following ? following.ReadFollowerOriginal(ReadOwnOriginal, Follows!) : ReadOwnOriginal();

    private ArchiveIndex ReadOwnOriginal() => RecentIndexes.Read(Format, Slice ?? ArchiveSource.File(GamePath));

    /// <summary>
    /// Entries that hold an archive which mods change inside (docs/DESIGN.md, "Archives inside archives"), each with the
    /// route of that inner archive: its original is the entry's stored bytes, a slice of <see cref="GamePath"/>.
    /// </summary>
    public IReadOnlyList<NestedRoute> Nested { get; init; } = [];

    /// <summary>The entries merged from several mods' files by a registered merge (Persona's tables), with what each mod gave (docs/TABLES.md).</summary>
    public IReadOnlyList<Merges.EntryMergeReport> Merges { get; init; } = [];

    /// <summary>
    /// The route of the archive mods change that this one follows and is rebuilt from, as its format (an
    /// <see cref="IFollowingFormat"/>) says, or null.
    /// </summary>
    public ArchiveRoute? Follows { get; init; }

    // The format's rules for following, when this route follows another.
    private IFollowingFormat? Following => Follows is null ? null : Format as IFollowingFormat;

    /// <summary>
    /// Reads the original and builds the emulated archive: each nested route first, then this one with each such entry
    /// replaced by the inner emulated archive's segments (never its bytes); a follower as its format builds it from its leader.
    /// The caller disposes it.
    /// </summary>
    public EmulatedArchive Build(FileHandlePool? pool = null) =>
        Following is { } following ? following.BuildFollower(this, Follows!, pool) : BuildWith(pool, (original, patch) => Format.Build(original, patch, pool));

    bool IFollowedRoute.HasChanges => Patch.Changes.Count > 0 || Nested.Count > 0;

    EmulatedArchive IFollowedRoute.BuildWith(FileHandlePool? pool, Func<ArchiveIndex, ArchivePatch, EmulatedArchive> build) => BuildWith(pool, build);

    /// <summary>The original read and the patch with every nested route built into it, given to <paramref name="build"/>.</summary>
    private EmulatedArchive BuildWith(FileHandlePool? pool, Func<ArchiveIndex, ArchivePatch, EmulatedArchive> build)
    {
        var original = ReadOriginal();
        if (Nested.Count == 0)
            return build(original, Patch);
        var inner = new List<EmulatedArchive>(Nested.Count);
        try
        {
            var changes = Patch.Changes.ToList();
            foreach (var nested in Nested)
            {
                var built = nested.Route.Build(pool);
                inner.Add(built);
                changes.Add(new EntryChange(nested.Entry, EntryInput.FromVirtualFile(built.File, nested.Route.RelativePath), nested.Origin));
            }
            return build(original, new ArchivePatch(changes));
        }
        finally
        {
            foreach (var built in inner) // the outer holds its own references to their sources
                built.Dispose();
        }
    }
}

/// <summary>An entry of an archive replaced by the emulated archive of <paramref name="Route"/>, which is stored in it.</summary>
/// <param name="Entry">The entry of the outer archive.</param>
/// <param name="Route">The inner archive's route: its original is a slice of the outer's holding file.</param>
/// <param name="Origin">How listings name the entry's origin: "nested (" and the mods that change inside it ")".</param>
internal sealed record NestedRoute(EntryKey Entry, ArchiveRoute Route, string Origin);

/// <summary>A plain file a mod replaces (or adds) as a whole, as in an overlay filesystem.</summary>
internal sealed record FileOverride(string RelativePath, string SourcePath, string Mod)
{
    /// <summary>The rule of the mod that placed it: "mirror" (the mod mirrors the game folder) or "Redirector" (Reloaded-II's folder).</summary>
    public string Rule { get; init; } = ModRules.Mirror;
}

/// <summary>Everything the mod folders ask of the game folder.</summary>
internal sealed class RoutePlan
{
    internal RoutePlan(string gameFolder, IReadOnlyList<string> mods, IReadOnlyList<ArchiveRoute> archives, IReadOnlyList<FileOverride> overrides, IReadOnlyList<RouteConflict> conflicts,
        IReadOnlyList<string> warnings)
    {
        GameFolder = gameFolder;
        Mods = mods;
        Archives = archives;
        Overrides = overrides;
        Conflicts = conflicts;
        Warnings = warnings;
    }

    public string GameFolder { get; }

    /// <summary>Full paths of the mod folders, lowest priority first.</summary>
    public IReadOnlyList<string> Mods { get; }
    public IReadOnlyList<ArchiveRoute> Archives { get; }
    public IReadOnlyList<FileOverride> Overrides { get; }

    /// <summary>Every conflict, archives' entries and whole files alike.</summary>
    public IReadOnlyList<RouteConflict> Conflicts { get; }

    /// <summary>
    /// What looks like a mistake in the mods but is applied as asked: a folder that looks meant for an archive but matches
    /// no game file (docs/DESIGN.md, "Letter case"). One line each; front ends show them all.
    /// </summary>
    public IReadOnlyList<string> Warnings { get; }

    /// <summary>
    /// How each mod folder was read, in priority order: its layout, the layout and language folders it applies, and the files it does
    /// not apply with why (docs/DESIGN.md, "What is not applied"); build, ls, the mount and doctor report this one classification.
    /// </summary>
    public IReadOnlyList<ModReport> ModReports { get; init; } = [];

    /// <summary>Whether this plan was read back from the cache folder (docs/DESIGN.md, "Route plans kept") rather than resolved now.</summary>
    public bool FromCache { get; init; }

    /// <summary>Every mod's files not applied, one line each (<see cref="NotApplied.Line"/>), in priority order.</summary>
    public IEnumerable<NotApplied> NotApplied => ModReports.SelectMany(m => m.NotApplied);

    /// <summary>The route at <paramref name="relativePath"/> as typed (<see cref="GamePaths.Parse"/>); null for none or a path outside the game.</summary>
    public ArchiveRoute? FindArchive(string relativePath) =>
        GamePaths.TryParse(relativePath, out var path) ? Archives.FirstOrDefault(a => a.RelativePath == path) : null;

    /// <summary>The file override at <paramref name="relativePath"/> as typed (<see cref="GamePaths.Parse"/>); null for none.</summary>
    public FileOverride? FindOverride(string relativePath) =>
        GamePaths.TryParse(relativePath, out var path) ? Overrides.FirstOrDefault(o => o.RelativePath == path) : null;
}
