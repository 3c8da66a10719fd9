using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Resolves mod folders against a game folder (docs/DESIGN.md, "Mod folders and routes"): a mod folder named
/// like a game file holds entries for that archive, other files override game files whole; mods are
/// in priority order (a later one wins) and every conflict is reported. Nothing leads out of a mod; the game's own symlinks
/// are followed wherever they lead.
/// </summary>
public sealed class ModRouter
{
    private readonly string _game;
    private readonly IReadOnlyList<string> _mods;
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
        _game = RequireFolder(gameFolder, "game folder");
        _mods = modFolders.Select(m => RequireFolder(m, "mod folder")).ToArray();
        _detect = detect ?? ArchiveFormats.Detect;
        _slices = slices ?? new Dictionary<string, (ArchiveSource, IArchiveFormat)>();
    }

    public RoutePlan Resolve()
    {
        var archives = new Dictionary<string, ArchiveChanges>(StringComparer.Ordinal);
        var overrides = new OrderedChanges<string, FileOverride>(StringComparer.Ordinal);
        foreach (var mod in _mods)
            Walk(mod, ModName(mod), mod, "", archives, overrides);

        var routes = archives.Values.OrderBy(a => a.RelativePath, StringComparer.Ordinal).Select(a => a.ToRoute()).ToArray();
        var overrideConflicts = overrides.Conflicts.Select(c => new RouteConflict(c.Key, null, c.Mods, c.Mods[^1]));
        return new RoutePlan(_game, _mods, routes, overrides.Values.ToArray(),
            routes.SelectMany(r => r.Conflicts).Concat(overrideConflicts).ToArray());
    }

    private void Walk(string modRoot, string modName, string folder, string relative,
        Dictionary<string, ArchiveChanges> archives, OrderedChanges<string, FileOverride> overrides)
    {
        foreach (var (path, isFolder) in GamePaths.EntriesInside(modRoot, folder))
        {
            string childRelative = relative.Length == 0 ? Path.GetFileName(path) : $"{relative}/{Path.GetFileName(path)}";
            string gamePath = Path.Combine(_game, childRelative);

            if (isFolder && _slices.TryGetValue(childRelative, out var slice))
            {
                if (!archives.TryGetValue(childRelative, out var changes))
                    archives[childRelative] = changes = new ArchiveChanges(childRelative, slice.Source.Path, slice.Format, slice.Source);
                changes.AddMod(modRoot, modName, path);
            }
            else if (isFolder && File.Exists(gamePath) && _slices.Keys.Any(k => k.StartsWith(childRelative + "/", StringComparison.Ordinal)))
                Walk(modRoot, modName, path, childRelative, archives, overrides); // a container: the archives inside it are routes of their own
            else if (isFolder && File.Exists(gamePath)) // through the game's symlinks, wherever they lead
            {
                if (GamePaths.DanglingLink(gamePath) is { Length: > 0 } nowhere)
                    throw new FileNotFoundException($"{gamePath}{nowhere}: mod folder {path} targets it", gamePath);
                if (!archives.TryGetValue(childRelative, out var changes))
                {
                    var format = _detect(gamePath) ?? throw new ArchiveFormatException(gamePath, 0,
                        $"mod folder {path} targets it, but it is not an archive format ArchiveEmu knows");
                    archives[childRelative] = changes = new ArchiveChanges(childRelative, gamePath, format);
                }
                changes.AddMod(modRoot, modName, path);
            }
            else if (isFolder)
                Walk(modRoot, modName, path, childRelative, archives, overrides);
            else
                overrides.Set(childRelative, new FileOverride(childRelative, Path.GetFullPath(path), modName), modName);
        }
    }

    private static string RequireFolder(string folder, string what)
    {
        var full = Path.GetFullPath(folder);
        if (!Directory.Exists(full))
            throw new DirectoryNotFoundException($"{full}: {what} not found");
        return full;
    }

    private static string ModName(string modFolder) => Path.GetFileName(modFolder.TrimEnd(Path.DirectorySeparatorChar));
}
