using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The changes all mods make to one archive, collected in priority order: entries replaced, added or deleted whole, and
/// entries that hold an archive changed inside (nested, docs/DESIGN.md "Archives inside archives"). The later mod wins an
/// entry: a whole replacement and changes inside the same entry are a conflict like any other.
/// </summary>
internal sealed class ArchiveChanges
{
    private readonly OrderedChanges<EntryKey, Change> _changes;
    // The current mod's files by entry: a mod may spell the archive's folder twice, or reach an entry by two FEF routes.
    private readonly Dictionary<EntryKey, (string File, int Specificity, bool Nested)> _fromThisMod;
    private readonly ArchiveInside _inside;
    private readonly DecodedEntries _decoded;
    private readonly List<string> _mods = []; // every mod with a file in it, for a nested entry's origin
    private string? _mod;
    private EntryMergeNotes? _merges; // the entries mods give in it that a registered merge claims (docs/TABLES.md)
    private readonly RouteMerges _routeMerges;

    public ArchiveChanges(string relativePath, string gamePath, IArchiveFormat format, DecodedEntries decoded, RouteMerges merges, ArchiveSource? slice = null)
    {
        _decoded = decoded;
        _routeMerges = merges;
        RelativePath = relativePath;
        GamePath = gamePath;
        Format = format;
        Slice = slice;
        _changes = new OrderedChanges<EntryKey, Change>(new EntryKeyComparer(format.NameComparer));
        _fromThisMod = new Dictionary<EntryKey, (string, int, bool)>(new EntryKeyComparer(format.NameComparer));
        _inside = new ArchiveInside(relativePath, gamePath, format, slice, decoded, () => Addressing);
        _merges = EntryMergeNotes.ForGameArchive(gamePath, relativePath, format, slice, _changes.Comparer, merges);
    }

    private EntryAddressing? _addressing;

    // A copy sharing what a walk read (the original's index, the decoded entries, the nested changes), for code inputs to change.
    private ArchiveChanges(ArchiveChanges walked)
    {
        (_decoded, RelativePath, GamePath, Format, Slice) = (walked._decoded, walked.RelativePath, walked.GamePath, walked.Format, walked.Slice);
        _routeMerges = walked._routeMerges;
        _changes = walked._changes.Copy();
        _fromThisMod = new Dictionary<EntryKey, (string, int, bool)>(walked._fromThisMod.Comparer);
        _inside = walked._inside;
        _addressing = walked._addressing;
        _merges = walked._merges;
    }

    /// <summary>
    /// A copy to lay inputs added in code over (<see cref="AddInput"/>), leaving this one as the mod folders made it
    /// (<see cref="ModLayer"/> keeps it for the next resolve).
    /// </summary>
    public ArchiveChanges Copy() => new(this);

    /// <summary>
    /// How this archive's entries are named: the format's addressing, or for a format with both (CPK) what its header says,
    /// read once on the first mod file. A header that cannot be read leaves names, as an unreadable original does below.
    /// </summary>
    public EntryAddressing Addressing => _addressing ??= ReadAddressing();

    private EntryAddressing ReadAddressing() => GameArchives.AddressingOf(Format, Slice ?? ArchiveSource.File(GamePath));

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
        foreach (var file in GamePaths.FilesInside(modRoot, archiveFolder))
            AddPath(modRoot, modName, Path.GetRelativePath(archiveFolder, file).Replace(Path.DirectorySeparatorChar, '/'), file, rule, int.MaxValue);
    }

    /// <summary>
    /// Notes <paramref name="file"/> as <paramref name="modName"/>'s input for the merged entry at <paramref name="path"/> (a file a merge
    /// found by its name elsewhere: <see cref="IGameMerges.ClaimByName"/>), changing no entry by itself.
    /// </summary>
    public void NoteForMerge(string path, string modName, string file) => _merges?.Note(EntryKey.ByName(path), modName, file);

    /// <summary>
    /// Adds one mod file at <paramref name="relative"/> below this archive's folder: an entry of it, named by
    /// <paramref name="naming"/> (the mirror layout's <see cref="EntryFileName.Parse"/> unless given), or a path through an entry
    /// that holds an archive, named inside by the same rule and placed with the same <paramref name="specificity"/>.
    /// </summary>
    public void AddPath(string modRoot, string modName, string relative, string file, string rule, int specificity, EntryNaming? naming = null)
    {
        naming ??= EntryFileName.Parse;
        BeginMod(modRoot, modName);
        if (_inside.Find(relative, file, naming) is { } through)
        {
            // The route's specificity goes inside: one FEF mod's longer route wins an inner entry as it wins an outer one.
            Inner(through, modName, file, rule, specificity).AddPath(modRoot, modName, through.Rest, file, rule, specificity, naming);
            return;
        }
        var (key, delete) = naming(relative, Addressing, file);
        AddFile(modName, file, key, delete, rule, specificity);
    }

    /// <summary>
    /// Adds one mod file at <paramref name="rest"/> inside the entry <paramref name="entryName"/>, an archive emulated from
    /// <paramref name="original"/>: the entry's own bytes, or those of the entry at the same path in another CPK (Persona
    /// Essentials builds one archive from the first CPK holding the path and binds it over that path in every CPK).
    /// </summary>
    public void AddInside(string modRoot, string modName, string entryName, ArchiveSource original, IArchiveFormat format, string rest, string file,
        string rule, int specificity, EntryNaming naming)
    {
        BeginMod(modRoot, modName);
        var through = new ThroughEntry(EntryKey.ByName(entryName), entryName, original, format, rest);
        Inner(through, modName, file, rule, specificity).AddPath(modRoot, modName, rest, file, rule, specificity, naming);
    }

    /// <summary>
    /// Adds one mod file for entry <paramref name="key"/>, placed by <paramref name="rule"/>. Within one mod the more specific rule
    /// wins (FileEmulationFramework's longer route, docs/DESIGN.md); two files of equal specificity are an <see cref="IOException"/>.
    /// </summary>
    private void AddFile(string modName, string file, EntryKey key, bool delete, string rule, int specificity)
    {
        var change = new Change(key, new EntryChange(key, delete ? null : EntryInput.FromFile(file), modName) { Rule = rule }, null);
        if (_fromThisMod.TryGetValue(key, out var earlier))
        {
            if (earlier.Nested || earlier.Specificity == specificity)
                throw Ambiguous(file, key);
            if (earlier.Specificity > specificity)
                return;
            _fromThisMod[key] = (file, specificity, false);
            _changes.ReplaceLast(key, change, rule);
            _merges?.Note(key, modName, delete ? null : file);
            return;
        }
        _fromThisMod[key] = (file, specificity, false);
        _changes.Set(key, change, modName, rule);
        _merges?.Note(key, modName, delete ? null : file);
    }

    /// <summary>
    /// Adds an input added in code, above every mod: it wins its entry whole (changes a mod made inside that entry included),
    /// and a mod that touched the entry is a conflict, as between two mods.
    /// </summary>
    public void AddInput(CodeInput input)
    {
        _mod = null; // no longer a mod's files: a mod walked again begins afresh (BeginMod)
        _changes.Set(input.Entry, new Change(input.Entry, new EntryChange(input.Entry, input.Input, input.Origin), null), input.Origin, ModRules.Code);
    }

    private void BeginMod(string modRoot, string modName)
    {
        if (_mod == modRoot)
            return;
        _fromThisMod.Clear();
        _mod = modRoot;
        _mods.Add(modName);
    }

    /// <summary>The changes inside the entry <paramref name="through"/> goes through; a whole replacement before them is overruled.</summary>
    private ArchiveChanges Inner(ThroughEntry through, string modName, string file, string rule, int specificity)
    {
        if (_fromThisMod.TryGetValue(through.Key, out var mine) && !mine.Nested)
            throw Ambiguous(file, through.Key);
        _fromThisMod.TryAdd(through.Key, (file, specificity, true));
        if (_changes.TryGetValue(through.Key, out var current) && current.Nested is { } inner)
            return inner; // more changes inside the same archive: not a conflict at this level
        inner = new ArchiveChanges($"{RelativePath}/{through.Folder}", GamePath, through.Format, _decoded, _routeMerges, through.Source);
        inner._merges = _merges?.Inside(through.Folder, inner._changes.Comparer);
        _changes.Set(through.Key, new Change(through.Key, null, inner), modName, rule);
        return inner;
    }

    private IOException Ambiguous(string file, EntryKey key) =>
        new($"{file}: targets entry {key} of {(Slice is null ? GamePath : RelativePath)}, as {_fromThisMod[key].File} in the same mod does; the mod is ambiguous, keep one of them");

    /// <summary>
    /// The route; <paramref name="originals"/> (one resolve's, across the game's archives) merges each entry a registered merge
    /// claims once, against the original it chooses, reading the mods' files as their language folders give them.
    /// </summary>
    public ArchiveRoute ToRoute(MergeOriginals originals)
    {
        var nested = _changes.Values.Where(c => c.Nested is not null)
            .Select(c => new NestedRoute(c.Key, c.Nested!.ToRoute(originals), $"nested ({string.Join(", ", c.Nested._mods.Distinct())})")).ToArray();
        var merged = MergeEntries(originals);
        // A merged entry's mods are no conflict over the whole entry: its report lists the fields they both changed.
        var conflicts = _changes.Conflicts.Where(c => merged.GetValueOrDefault(c.Key).Input is null)
            .Select(c => new RouteConflict(RelativePath, c.Key.ToString(), c.Mods, c.Mods[^1]) { Rules = c.Rules })
            .Concat(nested.SelectMany(n => n.Route.Conflicts)).ToArray();
        string Origin(EntryKey key) => $"merged ({string.Join(", ", merged[key].Report.Mods.Select(m => m.Mod))})";
        var changes = _changes.Values.Where(c => c.Whole is not null)
            .Select(c => merged.GetValueOrDefault(c.Key).Input is { } input ? c.Whole! with { Input = input, Origin = Origin(c.Key) } : c.Whole!)
            .Concat(merged.Where(t => t.Value.Input is not null && !_changes.TryGetValue(t.Key, out _)) // only a companion file (MSGTBL.bmd) changed it
                .Select(t => new EntryChange(t.Key, t.Value.Input, Origin(t.Key)) { Rule = "merged table" }));
        return new ArchiveRoute(RelativePath, GamePath, Format, new ArchivePatch(changes), conflicts, Slice)
        {
            Nested = nested,
            Merges = merged.Values.Select(t => t.Report).ToArray(),
        };
    }

    // Merges the claimed entries whose entry a mod's file still wins (an input added in code wins whole, as anywhere).
    private Dictionary<EntryKey, (EntryInput? Input, Merges.EntryMergeReport Report)> MergeEntries(MergeOriginals originals)
    {
        var merged = new Dictionary<EntryKey, (EntryInput?, Merges.EntryMergeReport)>(new EntryKeyComparer(Format.NameComparer));
        if (_merges is null)
            return merged;
        foreach (var (key, input, report) in _merges.Merge(_inside.ContentOf, originals))
        {
            if (!_changes.TryGetValue(key, out var change) || change.Whole is { Input: not null, Rule: not null })
                merged[key] = (input, report);
        }
        return merged;
    }

    /// <summary>This archive and those changed inside it that hold entries mods give to be merged, which <see cref="MergeOriginals"/> chooses originals among.</summary>
    public IEnumerable<MergeHolder> MergeHolders => _merges is null ? [] // the game merges nothing in this archive: nor in any archive inside it
        : new[] { _merges.Holder(_inside.ContentOf) }.Concat(_changes.Values.Where(c => c.Nested is not null).SelectMany(c => c.Nested!.MergeHolders));

    /// <summary>What the winning mod does to an entry: replace or delete it whole, or change the archive inside it.</summary>
    private sealed record Change(EntryKey Key, EntryChange? Whole, ArchiveChanges? Nested);
}
