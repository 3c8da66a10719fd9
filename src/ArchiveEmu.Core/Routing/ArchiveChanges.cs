using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>The changes all mods make to one archive, collected in priority order.</summary>
internal sealed class ArchiveChanges
{
    private readonly OrderedChanges<EntryKey, EntryChange> _changes;
    private readonly Dictionary<EntryKey, (string File, int Specificity)> _fromThisMod; // the current mod's files by entry: a mod may spell the archive's folder twice
    private string? _mod;

    public ArchiveChanges(string relativePath, string gamePath, IArchiveFormat format, ArchiveSource? slice = null)
    {
        RelativePath = relativePath;
        GamePath = gamePath;
        Format = format;
        Slice = slice;
        _changes = new OrderedChanges<EntryKey, EntryChange>(new EntryKeyComparer(format.NameComparer));
        _fromThisMod = new Dictionary<EntryKey, (string, int)>(new EntryKeyComparer(format.NameComparer));
    }

    public string RelativePath { get; }
    public string GamePath { get; }
    public IArchiveFormat Format { get; }
    public ArchiveSource? Slice { get; }

    /// <summary>
    /// Adds every file below <paramref name="archiveFolder"/>: one mod's folder for this archive, or one of its folders when the
    /// mod spells the archive's name in several letter cases. Two files of one mod for one entry are an <see cref="IOException"/>.
    /// </summary>
    public void AddMod(string modRoot, string modName, string archiveFolder, string rule = ModRules.Mirror)
    {
        foreach (var file in FilesBelow(modRoot, archiveFolder))
        {
            var relative = Path.GetRelativePath(archiveFolder, file).Replace(Path.DirectorySeparatorChar, '/');
            var (key, delete) = EntryFileName.Parse(relative, Format.Addressing, file);
            AddFile(modRoot, modName, file, key, delete, rule, int.MaxValue);
        }
    }

    /// <summary>
    /// Adds one mod file for entry <paramref name="key"/>, placed by <paramref name="rule"/>. Within one mod the more specific rule
    /// wins (FileEmulationFramework's longer route, docs/DESIGN.md); two files of equal specificity are an <see cref="IOException"/>.
    /// </summary>
    public void AddFile(string modRoot, string modName, string file, EntryKey key, bool delete, string rule, int specificity)
    {
        if (_mod != modRoot)
        {
            _fromThisMod.Clear();
            _mod = modRoot;
        }
        var change = new EntryChange(key, delete ? null : EntryInput.FromFile(file), modName) { Rule = rule };
        if (_fromThisMod.TryGetValue(key, out var earlier))
        {
            if (earlier.Specificity == specificity)
                throw new IOException($"{file}: targets entry {key} of {GamePath}, as {earlier.File} in the same mod does; the mod is ambiguous, keep one of them");
            if (earlier.Specificity > specificity)
                return;
            _fromThisMod[key] = (file, specificity);
            _changes.ReplaceLast(key, change, rule);
            return;
        }
        _fromThisMod[key] = (file, specificity);
        _changes.Set(key, change, modName, rule);
    }

    public ArchiveRoute ToRoute() => new(RelativePath, GamePath, Format, new ArchivePatch(_changes.Values),
        _changes.Conflicts.Select(c => new RouteConflict(RelativePath, c.Key.ToString(), c.Mods, c.Mods[^1]) { Rules = c.Rules }).ToArray(), Slice);

    private static IEnumerable<string> FilesBelow(string modRoot, string folder)
    {
        foreach (var (path, isFolder) in GamePaths.EntriesInside(modRoot, folder))
        {
            if (isFolder)
            {
                foreach (var file in FilesBelow(modRoot, path))
                    yield return file;
            }
            else
                yield return path;
        }
    }

    private sealed class EntryKeyComparer(StringComparer names) : IEqualityComparer<EntryKey>
    {
        public bool Equals(EntryKey x, EntryKey y) => x.IsIndex ? y.IsIndex && x.Index == y.Index : !y.IsIndex && names.Equals(x.Name, y.Name);
        public int GetHashCode(EntryKey key) => key.IsIndex ? key.Index : names.GetHashCode(key.Name!);
    }
}
