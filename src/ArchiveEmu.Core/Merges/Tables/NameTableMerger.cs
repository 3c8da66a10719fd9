using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Merges P5R's NAME.TBL per string (Essentials' ParsedNameTable and NameTableMerger): 19 pairs of segments, a
/// big-endian u16 offset per string, then the NUL-terminated strings. A mod's string that differs from the game's at
/// the same index replaces it, later mods winning; strings past the game's count are appended. The table is rebuilt,
/// so its bytes are in memory.
/// </summary>
internal static class NameTableMerger
{
    private const int Pairs = MergeableTable.NameTableSegments / 2;

    public static MergedTable Merge(MergeableTable table, EntryInput original, IReadOnlyList<TableModFile> mods)
    {
        var game = TryParse(table, original, out var error)
            ?? throw new InvalidDataException($"{original}: the game's {table.Path} is not a name table: {error}");
        var notApplied = new List<string>();
        var parsed = new List<byte[]>[]?[mods.Count];
        for (int k = 0; k < mods.Count; k++)
        {
            parsed[k] = TryParse(table, mods[k].File, out error);
            if (parsed[k] is null)
                notApplied.Add($"{mods[k].Mod}: {mods[k].File}: not applied: not a name table: {error}");
        }

        var merged = game.Select(strings => new List<byte[]>(strings)).ToArray();
        var changedBy = new Dictionary<(int Pair, int Index), List<int>>();
        var fields = new int[mods.Count];
        for (int k = 0; k < mods.Count; k++)
        {
            if (parsed[k] is not { } mod)
                continue;
            for (int pair = 0; pair < Pairs; pair++)
            {
                var strings = mod[pair];
                for (int index = 0; index < strings.Count; index++)
                {
                    bool changed = index >= game[pair].Count || !strings[index].AsSpan().SequenceEqual(game[pair][index]);
                    if (!changed)
                        continue;
                    if (index == merged[pair].Count)
                        merged[pair].Add(strings[index]);
                    else
                        merged[pair][index] = strings[index];
                    fields[k]++;
                    if (!changedBy.TryGetValue((pair, index), out var who))
                        changedBy.Add((pair, index), who = []);
                    who.Add(k);
                }
            }
        }

        var conflicts = new List<MergeConflict>();
        var won = new int[mods.Count];
        foreach (var ((pair, index), who) in changedBy.OrderBy(c => c.Key.Pair).ThenBy(c => c.Key.Index))
        {
            won[who[^1]]++;
            if (who.Count > 1)
            {
                var names = who.Select(k => mods[k].Mod).ToList();
                conflicts.Add(new MergeConflict(pair, index, merged[pair][index].Length, names, names[^1]));
            }
        }
        var file = Write(merged, table.Path);
        // A changed string moves its pair's offsets too: both segments of the pair (2p offsets, 2p+1 strings) name its mods.
        IReadOnlyList<string> ModsOf(int segment) => changedBy.Where(c => c.Key.Pair == segment / 2).SelectMany(c => c.Value).Distinct().Order()
            .Select(k => mods[k].Mod).ToArray();
        var report = new EntryMergeReport(table.Path,
            mods.Select((m, k) => new MergeContribution(m.Mod, fields[k], won[k])).ToList(), conflicts, notApplied)
        { Segments = TableSegments.Locate(table, file, ModsOf) };
        return new MergedTable(file, report);
    }

    // Each pair as Essentials' NameTableSegment.Serialize writes it: offsets, padding, the strings' total length, strings, padding.
    private static VirtualFiles.VirtualFile Write(List<byte[]>[] pairs, string path)
    {
        var writer = new MergedTableWriter();
        Span<byte> word = stackalloc byte[4];
        foreach (var strings in pairs)
        {
            BinaryPrimitives.WriteInt32BigEndian(word, strings.Count * 2);
            writer.WriteBytes(word);
            int offset = 0;
            foreach (var text in strings)
            {
                if (offset > ushort.MaxValue)
                    throw new InvalidDataException($"{path}: the merged strings of one segment pass 65,535 bytes, which its 16-bit offsets cannot address");
                BinaryPrimitives.WriteUInt16BigEndian(word, (ushort)offset);
                writer.WriteBytes(word[..2]);
                offset += text.Length;
            }
            writer.WriteBytes(new byte[TableContainer.RoundUp(4 + strings.Count * 2) - 4 - strings.Count * 2]);
            BinaryPrimitives.WriteInt32BigEndian(word, offset);
            writer.WriteBytes(word);
            foreach (var text in strings)
                writer.WriteBytes(text);
            writer.WriteBytes(new byte[TableContainer.RoundUp(4 + offset) - 4 - offset]);
        }
        return writer.Build();
    }

    /// <summary>The strings of each of the 19 pairs, each with its NUL; null with <paramref name="error"/> when the file is not a name table.</summary>
    private static List<byte[]>[]? TryParse(MergeableTable table, EntryInput file, out string? error)
    {
        var spans = TableContainer.TryRead(table, file, out error);
        if (spans is null)
            return null;
        var pairs = new List<byte[]>[Pairs];
        for (int pair = 0; pair < Pairs; pair++)
        {
            var offsets = TableContainer.ReadBytes(file, spans[2 * pair].DataOffset, spans[2 * pair].Length);
            var pool = TableContainer.ReadBytes(file, spans[2 * pair + 1].DataOffset, spans[2 * pair + 1].Length);
            pairs[pair] = new List<byte[]>(offsets.Length / 2);
            for (int i = 0; i + 1 < offsets.Length; i += 2)
            {
                int at = BinaryPrimitives.ReadUInt16BigEndian(offsets.AsSpan(i));
                int nul = at < pool.Length ? pool.AsSpan(at).IndexOf((byte)0) : -1;
                if (nul < 0)
                {
                    error = $"string {i / 2} of segment {2 * pair + 1} at offset {at} has no NUL before the segment's end ({pool.Length} bytes)";
                    return null;
                }
                pairs[pair].Add(pool.AsSpan(at, nul + 1).ToArray());
            }
        }
        return pairs;
    }
}
