using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// One resolve's merged entries across the game's archives, as Persona Essentials binds them (docs/TABLES.md, "In routing"): an
/// entry path is merged once, against the copy the merge chooses among every archive holding it, listed in the order Essentials
/// looks in them (the game's language CPK, the base CPK, the rest: p5rpc.modloader <c>Mod_Merging.OnBind</c>), and that one merged
/// file is every archive's entry for the path (CRI FileSystem V2 Hook binds a file by path, over that path in every CPK). An entry
/// inside a PAK stored in a CPK (P4G's, P3P's <c>init_free.bin</c>) the same: its candidates are the copies in the CPKs holding the
/// PAK (<c>P4GTblMerger.PatchTbl</c>), and the merge is added to the PAK by its route, so to that PAK in every CPK.
/// </summary>
internal sealed class MergeOriginals
{
    private readonly MergeHolder[] _holders;
    private readonly IReadOnlyDictionary<string, (string File, string Rule)> _localised;
    private readonly string _language;
    private readonly Dictionary<(string Path, string Files), (EntryInput? Input, EntryMergeReport Report)> _merged = new();

    /// <summary>
    /// The archives among <paramref name="archives"/> (one resolve's top-level archives) and inside them holding entries mods give
    /// to be merged, in Essentials' order for <paramref name="language"/>; <paramref name="localised"/> is how every merge reads its
    /// mods' files (a mod file's full path → the language folder's file that replaces it).
    /// </summary>
    public MergeOriginals(IEnumerable<ArchiveChanges> archives, IReadOnlyDictionary<string, (string File, string Rule)> localised, string language)
    {
        (_localised, _language) = (localised, language);
        _holders = archives.SelectMany(a => a.MergeHolders)
            .OrderBy(h => GameCpks.EssentialsRank(h.Archive, language)).ThenBy(h => h.Archive, StringComparer.Ordinal).ToArray();
    }

    /// <summary>
    /// The merge of <paramref name="files"/> (the mods' files for the entry at <paramref name="path"/>, in load order) by
    /// <paramref name="merge"/>, made on first use: every archive merging the same files is served the same result. Its candidate
    /// originals are the copies in the archives that hold the path and whose mods give it, in Essentials' order; <paramref name="own"/>
    /// (the asking archive's copy) when there are none.
    /// </summary>
    public (EntryInput? Input, EntryMergeReport Report) Merged(IGameMerges merge, string path, MergeOriginal own,
        IReadOnlyList<(string Mod, string File, string? Companion)> files)
    {
        var candidates = Candidates(path);
        if (candidates.Count == 0)
            candidates.Add(own);
        var key = ($"{candidates[0].Archive}/{path.ToUpperInvariant()}", string.Join('\n', files.Select(f => $"{f.Mod}|{f.File}|{f.Companion}")));
        if (!_merged.TryGetValue(key, out var merged))
        {
            var mods = files.Select(f => new MergeModFile(f.Mod, f.File, _localised.TryGetValue(f.File, out var to) ? to.File : null, f.Companion)).ToArray();
            _merged[key] = merged = merge.Merge(new EntryMergeRequest(path, candidates, mods, _language));
        }
        return merged;
    }

    private List<MergeOriginal> Candidates(string path)
    {
        var found = new List<MergeOriginal>();
        foreach (var (archive, prefix, contentOf, paths) in _holders)
        {
            if (paths.Contains(path) && contentOf(path[prefix.Length..]) is { } copy)
                found.Add(new MergeOriginal(archive, copy.Name, copy.Content));
        }
        return found;
    }
}

/// <summary>
/// An archive holding entries mods give to be merged: the game folder's archive it is or is stored in, its path from that
/// archive's root (<paramref name="Prefix"/>, "" or with a trailing '/'), its original's entries by name, and the entries' paths.
/// </summary>
internal sealed record MergeHolder(string Archive, string Prefix, Func<string, (string Name, ArchiveSource Content)?> ContentOf, IReadOnlySet<string> Paths);
