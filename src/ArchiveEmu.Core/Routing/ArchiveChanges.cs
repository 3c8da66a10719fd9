using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The changes all mods make to one archive, collected in priority order: entries replaced, added or deleted whole, and
/// entries that hold an archive changed inside (nested, docs/DESIGN.md "Archives inside archives"). The later mod wins an
/// entry: a whole replacement and changes inside the same entry are a conflict like any other.
/// </summary>
internal sealed class ArchiveChanges
{
    private readonly OrderedChanges<EntryKey, Change> _changes;
    private readonly Dictionary<EntryKey, (string File, bool Nested)> _fromThisMod; // the current mod's files by entry: a mod may spell the archive's folder twice
    private readonly ArchiveInside _inside;
    private readonly List<string> _mods = []; // every mod with a file in it, for a nested entry's origin
    private string? _mod;

    public ArchiveChanges(string relativePath, string gamePath, IArchiveFormat format, ArchiveSource? slice = null)
    {
        RelativePath = relativePath;
        GamePath = gamePath;
        Format = format;
        Slice = slice;
        _changes = new OrderedChanges<EntryKey, Change>(new EntryKeyComparer(format.NameComparer));
        _fromThisMod = new Dictionary<EntryKey, (string, bool)>(new EntryKeyComparer(format.NameComparer));
        _inside = new ArchiveInside(relativePath, gamePath, format, slice);
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
        foreach (var file in FilesBelow(modRoot, archiveFolder))
            Add(modRoot, modName, Path.GetRelativePath(archiveFolder, file).Replace(Path.DirectorySeparatorChar, '/'), file);
    }

    /// <summary>Adds one mod file at <paramref name="relative"/> below this archive's folder: an entry of it, or a path through one.</summary>
    private void Add(string modRoot, string modName, string relative, string file)
    {
        if (_mod != modRoot)
        {
            _fromThisMod.Clear();
            _mod = modRoot;
            _mods.Add(modName);
        }
        if (_inside.Find(relative, file) is { } through)
        {
            Inner(through, modName, file).Add(modRoot, modName, through.Rest, file);
            return;
        }
        var (key, delete) = EntryFileName.Parse(relative, Format.Addressing, file);
        if (!_fromThisMod.TryAdd(key, (file, false)))
            throw Ambiguous(file, key);
        var input = delete ? null : EntryInput.FromFile(file);
        _changes.Set(key, new Change(key, new EntryChange(key, input, modName), null), modName);
    }

    /// <summary>The changes inside the entry <paramref name="through"/> goes through; a whole replacement before them is overruled.</summary>
    private ArchiveChanges Inner(ThroughEntry through, string modName, string file)
    {
        if (_fromThisMod.TryGetValue(through.Key, out var mine) && !mine.Nested)
            throw Ambiguous(file, through.Key);
        _fromThisMod.TryAdd(through.Key, (file, true));
        if (_changes.TryGetValue(through.Key, out var current) && current.Nested is { } inner)
            return inner; // more changes inside the same archive: not a conflict at this level
        inner = new ArchiveChanges($"{RelativePath}/{through.Folder}", GamePath, through.Format, through.Source);
        _changes.Set(through.Key, new Change(through.Key, null, inner), modName);
        return inner;
    }

    private IOException Ambiguous(string file, EntryKey key) =>
        new($"{file}: targets entry {key} of {(Slice is null ? GamePath : RelativePath)}, as {_fromThisMod[key].File} in the same mod does; the mod is ambiguous, keep one of them");

    public ArchiveRoute ToRoute()
    {
        var nested = _changes.Values.Where(c => c.Nested is not null)
            .Select(c => new NestedRoute(c.Key, c.Nested!.ToRoute(), $"nested ({string.Join(", ", c.Nested._mods.Distinct())})")).ToArray();
        var conflicts = _changes.Conflicts.Select(c => new RouteConflict(RelativePath, c.Key.ToString(), c.Mods, c.Mods[^1]))
            .Concat(nested.SelectMany(n => n.Route.Conflicts)).ToArray();
        return new ArchiveRoute(RelativePath, GamePath, Format, new ArchivePatch(_changes.Values.Where(c => c.Whole is not null).Select(c => c.Whole!)),
            conflicts, Slice) { Nested = nested };
    }

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

    /// <summary>What the winning mod does to an entry: replace or delete it whole, or change the archive inside it.</summary>
    private sealed record Change(EntryKey Key, EntryChange? Whole, ArchiveChanges? Nested);

    private sealed class EntryKeyComparer(StringComparer names) : IEqualityComparer<EntryKey>
    {
        public bool Equals(EntryKey x, EntryKey y) => x.IsIndex ? y.IsIndex && x.Index == y.Index : !y.IsIndex && names.Equals(x.Name, y.Name);
        public int GetHashCode(EntryKey key) => key.IsIndex ? key.Index : names.GetHashCode(key.Name!);
    }
}
