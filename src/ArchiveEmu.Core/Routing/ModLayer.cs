namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The mod folders walked once (<see cref="ModRouter.WalkMods"/>): the changes per archive, the whole-file overrides, their
/// conflicts and the warnings, before inputs added in code are laid over them and followers attached. A front whose only change
/// is an input added in code keeps it, so the next <see cref="ModRouter.Resolve(ModLayer)"/> walks no folder and reads no header.
/// </summary>
internal sealed class ModLayer
{
    internal ModLayer(IReadOnlyDictionary<string, ArchiveChanges> archives, IReadOnlyList<FileOverride> overrides,
        IReadOnlyList<RouteConflict> overrideConflicts, IReadOnlyList<string> warnings, DecodedEntries decoded)
    {
        Archives = archives;
        Overrides = overrides;
        OverrideConflicts = overrideConflicts;
        Warnings = warnings;
        Decoded = decoded;
    }

    /// <summary>The changes the mods make to each archive, in the order the walk met them; never changed after the walk (a resolve copies one to change it).</summary>
    public IReadOnlyDictionary<string, ArchiveChanges> Archives { get; }

    public IReadOnlyList<FileOverride> Overrides { get; }

    /// <summary>Whole files more than one mod replaces.</summary>
    public IReadOnlyList<RouteConflict> OverrideConflicts { get; }

    public IReadOnlyList<string> Warnings { get; }

    /// <summary>How each mod folder was read (its layout, what it applies and what not, and why), in priority order.</summary>
    public IReadOnlyList<ModReport> ModReports { get; init; } = [];

    /// <summary>Replacements from the mods' language folders: a mod file's full path → the language's file and its rule.</summary>
    public IReadOnlyDictionary<string, (string File, string Rule)> Localised { get; init; } = new Dictionary<string, (string, string)>();

    /// <summary>Where the walk decoded inner archives stored compressed; archives first met by a code input use it too.</summary>
    public DecodedEntries Decoded { get; }
}
