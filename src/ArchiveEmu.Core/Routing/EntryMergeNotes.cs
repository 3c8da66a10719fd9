using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The entries a registered merge claims inside one archive (<see cref="EntryMerges"/>; docs/TABLES.md): every mod's file for
/// such an entry, in load order, so the entry is served merged instead of the later mod replacing it whole. Known only inside an
/// archive of the game folder the game's merges look into (Persona's: its CPKs), and inside the archives stored in it.
/// </summary>
internal sealed class EntryMergeNotes
{
    private readonly IReadOnlyList<IGameMerges> _merges;
    private readonly string _archive; // the game folder's archive this one is, or is stored in
    private readonly string _prefix; // this archive's path from that archive's root, with a trailing '/', or "" for it
    private readonly Dictionary<EntryKey, Claimed> _files;

    private EntryMergeNotes(IReadOnlyList<IGameMerges> merges, string archive, string prefix, IEqualityComparer<EntryKey> keys) =>
        (_merges, _archive, _prefix, _files) = (merges, archive, prefix, new(keys));

    /// <summary>
    /// For an archive of the game folder (<paramref name="gamePath"/> is its file, <paramref name="relativePath"/> its path in the
    /// folder) that the game's merges look into, its entries compared by <paramref name="keys"/> (the format's); null for any other.
    /// </summary>
    public static EntryMergeNotes? ForGameArchive(string gamePath, string relativePath, IArchiveFormat format, ArchiveSource? slice, IEqualityComparer<EntryKey> keys,
        RouteMerges routeMerges)
    {
        if (slice is not null)
            return null;
        var full = Path.GetFullPath(gamePath).Replace('\\', '/');
        if (!full.EndsWith("/" + relativePath, StringComparison.Ordinal))
            return null;
        var merges = routeMerges.For(full[..^(relativePath.Length + 1)], format);
        return merges.Count > 0 ? new EntryMergeNotes(merges, relativePath, "", keys) : null;
    }

    /// <summary>The same for the archive stored in this one's entry <paramref name="folder"/>, whose entries <paramref name="keys"/> compares.</summary>
    public EntryMergeNotes Inside(string folder, IEqualityComparer<EntryKey> keys) => new(_merges, _archive, $"{_prefix}{folder}/", keys);

    /// <summary>
    /// Notes a mod's file for <paramref name="key"/> (null: the mod deletes the entry, which forgets the files before), or for the
    /// entry whose part it replaces whole (<see cref="MergeClaim.Companion"/>): that file also stays an entry of its own, as under
    /// Essentials, where FileEmulationFramework still adds it to the PAK.
    /// </summary>
    public void Note(EntryKey key, string mod, string? file)
    {
        if (key.Name is null || Claim(_prefix + key.Name) is not var (merge, claim))
            return;
        if (claim.Companion is not null)
        {
            // A companion is noted under the entry it is merged into, which must be in this archive.
            if (file is null || !claim.Path.StartsWith(_prefix, StringComparison.OrdinalIgnoreCase))
                return;
            var name = claim.Path[_prefix.Length..];
            var noted = _files.Keys.Where(k => string.Equals(k.Name, name, StringComparison.OrdinalIgnoreCase)).ToList();
            key = noted.Count > 0 ? noted[0] : EntryKey.ByName(name);
        }
        if (file is null)
        {
            _files.Remove(key);
            return;
        }
        if (!_files.TryGetValue(key, out var claimed))
            _files.Add(key, claimed = new Claimed(merge, claim.Path, []));
        var files = claimed.Files;
        if (files.Count > 0 && files[^1].Mod == mod && files[^1].Companion == claim.Companion)
            files[^1] = (mod, file, claim.Companion); // the same mod's more specific rule
        else
            files.Add((mod, file, claim.Companion));
    }

    // The first registered merge that claims the entry at entryPath.
    private (IGameMerges, MergeClaim)? Claim(string entryPath)
    {
        foreach (var merge in _merges)
        {
            if (merge.Claim(entryPath) is { } claim)
                return (merge, claim);
        }
        return null;
    }

    /// <summary>This archive as one holding entries mods give to be merged (their paths, maybe none), for <see cref="MergeOriginals"/>.</summary>
    public MergeHolder Holder(Func<string, (string Name, ArchiveSource Content)?> contentOf) =>
        new(_archive, _prefix, contentOf, _files.Values.Select(f => f.Path).ToHashSet(StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// Merges each noted entry the original holds: the entry (as the archive spells it), its new input and the report.
    /// <paramref name="contentOf"/> finds an entry and its bytes in this archive's original. Each entry is merged once for every
    /// archive holding it (<paramref name="originals"/>), against the original its merge chooses among their copies.
    /// </summary>
    public IEnumerable<(EntryKey Key, EntryInput? Input, EntryMergeReport Report)> Merge(Func<string, (string Name, ArchiveSource Content)?> contentOf,
        MergeOriginals originals)
    {
        foreach (var (key, (merge, path, files)) in _files)
        {
            if (contentOf(key.Name!) is not { } own)
                continue; // an entry the game does not have: the last mod's file is a new entry
            var (input, report) = originals.Merged(merge, path, new MergeOriginal(_archive, own.Name, own.Content), files);
            yield return (EntryKey.ByName(own.Name), input, report);
        }
    }

    /// <summary>A claimed entry: the merge claiming it, its path as the merge spells it, and the mods' files for it in load order.</summary>
    private sealed record Claimed(IGameMerges Merge, string Path, List<(string Mod, string File, string? Companion)> Files);
}
