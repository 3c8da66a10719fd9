using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>The changes all mods make to one archive, collected in priority order.</summary>
internal sealed class ArchiveChanges
{
    private readonly OrderedChanges<EntryKey, EntryChange> _changes;
    private readonly Dictionary<EntryKey, string> _fromThisMod; // the current mod's files by entry: a mod may spell the archive's folder twice
    private string? _mod;

    public ArchiveChanges(string relativePath, string gamePath, IArchiveFormat format, ArchiveSource? slice = null)
    {
        RelativePath = relativePath;
        GamePath = gamePath;
        Format = format;
        Slice = slice;
        _changes = new OrderedChanges<EntryKey, EntryChange>(new EntryKeyComparer(format.NameComparer));
        _fromThisMod = new Dictionary<EntryKey, string>(new EntryKeyComparer(format.NameComparer));
    }

    public string RelativePath { get; }
    public string GamePath { get; }
    public IArchiveFormat Format { get; }
    public ArchiveSource? Slice { get; }

    /// <summary>
    /// Adds every file below <paramref name="archiveFolder"/>: one mod's folder for this archive, or one of its folders when the
    /// mod spells the archive's name in several letter cases. Two files of one mod for one entry are an <see cref="IOException"/>.
    /// </summary>
    public void AddMod(string modRoot, string modName, string archiveFolder)
    {
        if (_mod != modRoot)
        {
            _fromThisMod.Clear();
            _mod = modRoot;
        }
        foreach (var file in FilesBelow(modRoot, archiveFolder))
        {
            var relative = Path.GetRelativePath(archiveFolder, file).Replace(Path.DirectorySeparatorChar, '/');
            var (key, delete) = EntryFileName.Parse(relative, Format.Addressing, file);
            if (!_fromThisMod.TryAdd(key, file))
                throw new IOException($"{file}: targets entry {key} of {GamePath}, as {_fromThisMod[key]} in the same mod does; the mod is ambiguous, keep one of them");
            var input = delete ? null : EntryInput.FromFile(file);
            _changes.Set(key, new EntryChange(key, input, modName), modName);
        }
    }

    public ArchiveRoute ToRoute() => new(RelativePath, GamePath, Format, new ArchivePatch(_changes.Values),
        _changes.Conflicts.Select(c => new RouteConflict(RelativePath, c.Key.ToString(), c.Mods, c.Mods[^1])).ToArray(), Slice);

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
