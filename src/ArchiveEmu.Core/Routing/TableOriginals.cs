using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Tables;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// One resolve's merged Persona tables across the game's CPKs, as Persona Essentials binds them (docs/TABLES.md, "In routing"):
/// a table path is merged once, against the copy of the first CPK holding it in Essentials' order (the game's language CPK, the
/// base CPK, the rest: p5rpc.modloader <c>Mod_Merging.OnBind</c>, <c>MergeUtils.TryFindFileInAnyCpk</c>), and that one merged
/// file is every CPK's entry for the path (CRI FileSystem V2 Hook binds a file by path, over that path in every CPK).
/// </summary>
internal sealed class TableOriginals
{
    private readonly (string Cpk, Func<string, (string Name, ArchiveSource Content)?> ContentOf, IReadOnlySet<string> Tables)[] _cpks;
    private readonly Dictionary<(string Original, string Files), (EntryInput? Input, TableMergeReport Report)> _merged = new();

    /// <summary>
    /// The CPKs among <paramref name="archives"/> (one resolve's top-level archives) whose tables mods change, in Essentials' order
    /// for <paramref name="language"/>; <paramref name="localised"/> is how every table merge reads its mods' files.
    /// </summary>
    public TableOriginals(IEnumerable<ArchiveChanges> archives, IReadOnlyDictionary<string, (string File, string Rule)> localised, string language)
    {
        (Localised, Language) = (localised, language);
        _cpks = archives.Select(a => (a.RelativePath, (Func<string, (string, ArchiveSource)?>)a.OriginalEntry, a.TablePaths)).Where(c => c.TablePaths.Count > 0)
            .OrderBy(c => GameCpks.EssentialsRank(c.RelativePath, language)).ThenBy(c => c.RelativePath, StringComparer.Ordinal).ToArray();
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
        foreach (var (cpk, contentOf, tables) in _cpks)
        {
            if (tables.Contains(tablePath) && contentOf(tablePath) is { } found)
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
