using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Tables;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// One resolve's merged Persona tables across the game's CPKs, as Persona Essentials binds them (docs/TABLES.md, "In routing"):
/// a table path is merged once, against the copy of the first CPK holding it in Essentials' order (the game's language CPK, the
/// base CPK, the rest: p5rpc.modloader <c>Mod_Merging.OnBind</c>, <c>MergeUtils.TryFindFileInAnyCpk</c>), and that one merged
/// file is every CPK's entry for the path (CRI FileSystem V2 Hook binds a file by path, over that path in every CPK). A table
/// inside a PAK stored in a CPK (P4G's, P3P's <c>init_free.bin</c>) the same: its original is from the first CPK holding the PAK
/// (<c>P4GTblMerger.PatchTbl</c>), and the merge is added to the PAK by its route, so to that PAK in every CPK.
/// </summary>
internal sealed class TableOriginals
{
    private readonly TableHolder[] _holders;
    private readonly Dictionary<(string Original, string Files), (EntryInput? Input, TableMergeReport Report)> _merged = new();

    /// <summary>
    /// The archives among <paramref name="archives"/> (one resolve's top-level archives) and inside them whose tables mods change,
    /// by their CPK in Essentials' order for <paramref name="language"/>; <paramref name="localised"/> is how every merge reads its mods' files.
    /// </summary>
    public TableOriginals(IEnumerable<ArchiveChanges> archives, IReadOnlyDictionary<string, (string File, string Rule)> localised, string language)
    {
        (Localised, Language) = (localised, language);
        _holders = archives.SelectMany(a => a.TableHolders)
            .OrderBy(h => GameCpks.EssentialsRank(h.Cpk, language)).ThenBy(h => h.Cpk, StringComparer.Ordinal).ToArray();
    }

    /// <summary>Replacements from the mods' language folders: a mod file's full path → the language's file that replaces it.</summary>
    public IReadOnlyDictionary<string, (string File, string Rule)> Localised { get; }

    /// <summary>The game's language, a Localisation Framework id.</summary>
    public string Language { get; }

    /// <summary>
    /// The original of the table at <paramref name="tablePath"/> (its path from a CPK's root) and the CPK holding it: the first CPK
    /// in Essentials' order whose tables mods change there and that holds the path; null when none does.
    /// </summary>
    public (string Cpk, string Name, ArchiveSource Content)? Original(string tablePath)
    {
        foreach (var (cpk, prefix, contentOf, tables) in _holders)
        {
            if (tables.Contains(tablePath) && contentOf(tablePath[prefix.Length..]) is { } found)
                return (cpk, found.Name, found.Content);
        }
        return null;
    }

    /// <summary>
    /// The merge of <paramref name="files"/> (the mods' files, in order, as their language folders give them) against the original
    /// of <paramref name="originalCpk"/>'s table, made on first use: every CPK merging the same files is served the same result.
    /// </summary>
    public (EntryInput? Input, TableMergeReport Report) Merged(string originalCpk, string tablePath, IEnumerable<string> files,
        Func<(EntryInput? Input, TableMergeReport Report)> merge)
    {
        var key = (originalCpk + "/" + tablePath.ToUpperInvariant(), string.Join('\n', files));
        if (!_merged.TryGetValue(key, out var merged))
            _merged[key] = merged = merge();
        return merged;
    }
}

/// <summary>
/// An archive holding Persona tables mods give: its game CPK, its path from that CPK's root (<paramref name="Prefix"/>, "" or with a
/// trailing '/'), its original's entries by name, and the tables' catalog paths.
/// </summary>
internal sealed record TableHolder(string Cpk, string Prefix, Func<string, (string Name, ArchiveSource Content)?> ContentOf, IReadOnlySet<string> Tables);
