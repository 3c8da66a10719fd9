namespace ArchiveEmu.Core.Merges.Bustup;

/// <summary>
/// The bust-up merging mod's merge (<c>MergeIntoFinal</c> in its <c>BustupParam.cs</c> and <c>BustupParamAssist.cs</c>; docs/TABLES.md,
/// "P5R bust-up parameters"), over its own copy of the game's file:
/// <list type="number">
/// <item>in each file, the last entry of a key is the one that counts;</item>
/// <item>each mod's entry is compared with the original's entry of its key, by value: an equal one changes nothing, so a later
/// mod shipping the game's entry cannot undo an earlier mod's edit;</item>
/// <item>any other replaces the entry of its key whole (a key the original lacks is added): the later mod wins a key both change;</item>
/// <item>after a mod file with at least one entry, the result is one entry per key, sorted by key; with none, the original as it is.</item>
/// </list>
/// No entry is ever removed.
/// </summary>
internal static class BustupParamMerger
{
    /// <summary>One mod's file for the merge: the mod as reports name it, the file (for the report) and its bytes.</summary>
    public sealed record ModFile(string Mod, string File, ReadOnlyMemory<byte> Bytes);

    public static (byte[] Merged, EntryMergeReport Report) Merge(BustupParamFile kind, ReadOnlyMemory<byte> original, IReadOnlyList<ModFile> mods)
    {
        var originals = LastOfEachKey(kind, kind.Entries(original));
        var result = kind.Entries(original);
        var setBy = new Dictionary<ulong, List<string>>(); // per key, the mods that changed it, in order
        var notApplied = new List<string>();
        foreach (var mod in mods)
        {
            var entries = kind.Entries(mod.Bytes);
            if (mod.Bytes.Length % kind.EntrySize != 0)
                notApplied.Add($"{mod.Mod}: {mod.File}: its last {mod.Bytes.Length % kind.EntrySize} byte(s) are no whole entry of {kind.EntrySize} bytes; "
                    + "not read, as the bust-up merging mod does not read them");
            if (entries.Count == 0)
                continue; // the merging mod leaves the result as it was, unsorted
            var merged = LastOfEachKey(kind, result);
            foreach (var (key, entry) in LastOfEachKey(kind, entries))
            {
                if (originals.TryGetValue(key, out var before) && kind.SameValues(entry.Span, before.Span))
                    continue;
                merged[key] = entry;
                if (!setBy.TryGetValue(key, out var by))
                    setBy[key] = by = [];
                by.Remove(mod.Mod);
                by.Add(mod.Mod);
            }
            result = [.. merged.OrderBy(e => e.Key).Select(e => e.Value)];
        }
        var bytes = new byte[result.Count * kind.EntrySize];
        for (int i = 0; i < result.Count; i++)
            result[i].Span.CopyTo(bytes.AsSpan(i * kind.EntrySize));
        return (bytes, Report(kind, result, setBy, mods, notApplied));
    }

    // The merging mod's GroupBy(key).ToDictionary(g => g.Last()): keys in the order first seen, each holding its last entry.
    private static Dictionary<ulong, ReadOnlyMemory<byte>> LastOfEachKey(BustupParamFile kind, List<ReadOnlyMemory<byte>> entries)
    {
        var byKey = new Dictionary<ulong, ReadOnlyMemory<byte>>(entries.Count);
        foreach (var entry in entries)
            byKey[kind.Key(entry.Span)] = entry;
        return byKey;
    }

    private static EntryMergeReport Report(BustupParamFile kind, List<ReadOnlyMemory<byte>> result, Dictionary<ulong, List<string>> setBy,
        IReadOnlyList<ModFile> mods, List<string> notApplied)
    {
        var at = new Dictionary<ulong, int>(result.Count);
        for (int i = 0; i < result.Count; i++)
            at.TryAdd(kind.Key(result[i].Span), i);
        var contributions = mods.Select(m => m.Mod).Distinct().Select(mod => new MergeContribution(mod,
            setBy.Count(s => s.Value.Contains(mod)), setBy.Count(s => s.Value[^1] == mod))).Where(c => c.Fields > 0).ToArray();
        var conflicts = setBy.Where(s => s.Value.Count > 1).OrderBy(s => s.Key)
            .Select(s => new MergeConflict(0, (long)at[s.Key] * kind.EntrySize, kind.EntrySize, s.Value, s.Value[^1])).ToArray();
        return new EntryMergeReport(kind.GamePath, contributions, conflicts, notApplied)
        {
            Segments = [new MergedSegment(0, 0, result.Count * kind.EntrySize, [.. contributions.Select(c => c.Mod)])],
        };
    }
}
