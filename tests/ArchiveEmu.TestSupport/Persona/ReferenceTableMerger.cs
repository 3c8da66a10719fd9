namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// An independent Persona table merger written from docs/TABLES.md (it shares no code with ArchiveEmu.Core): it patches
/// byte arrays in place, mod after mod, as Essentials' patcher does, where the product computes an owner per byte.
/// </summary>
public static class ReferenceTableMerger
{
    /// <summary>A field conflict as TABLES.md describes it: segment, offset in the segment's data, width, mods in load order.</summary>
    public sealed record Conflict(int Segment, long Offset, int Width, string[] Mods);

    /// <summary>
    /// Merges TBL containers of <paramref name="layouts"/>.Length segments (big-endian s32 length, data, zeros to a multiple of 16).
    /// <paramref name="layouts"/>[i] gives, for each byte of one record of segment i, the width of the field it belongs to
    /// is found by walking the record's widths.
    /// </summary>
    public static byte[] MergeTbl(byte[] original, IReadOnlyList<(string Mod, byte[] File)> mods, int[]?[] layouts, List<Conflict>? conflicts = null,
        bool littleEndian = false)
    {
        var baseSegments = Split(original, layouts.Length, littleEndian);
        var modSegments = mods.Select(m => Split(m.File, layouts.Length, littleEndian)).ToList();
        var output = new List<byte>();
        for (int s = 0; s < layouts.Length; s++)
        {
            // A segment without a layout keeps the game's bytes whatever the mods hold.
            var merged = layouts[s] is { } layout
                ? MergeRun(baseSegments[s], modSegments.Select(m => m[s]).ToList(), layout, mods.Select(m => m.Mod).ToList(), s, conflicts)
                : baseSegments[s];
            var length = BitConverter.GetBytes(merged.Length);
            if (littleEndian != BitConverter.IsLittleEndian)
                Array.Reverse(length);
            output.AddRange(length);
            output.AddRange(merged);
            while (output.Count % 16 != 0)
                output.Add(0);
        }
        return output.ToArray();
    }

    /// <summary>
    /// Merges itemtbl.bin files: a little-endian s32 item count, then segments back to back, segment i being
    /// <paramref name="fixedLength"/>[i] + count × <paramref name="perItem"/>[i] bytes; the count written is the merged
    /// length of the one segment that grows with it, over its item size.
    /// </summary>
    public static byte[] MergeItems(byte[] original, IReadOnlyList<(string Mod, byte[] File)> mods, int[][] layouts, int[] fixedLength, int[] perItem)
    {
        byte[][] Cut(byte[] file)
        {
            int count = BitConverter.ToInt32(file, 0);
            int at = 4;
            var parts = new byte[layouts.Length][];
            for (int i = 0; i < parts.Length; i++)
            {
                int length = fixedLength[i] + count * perItem[i];
                parts[i] = file.AsSpan(at, length).ToArray();
                at += length;
            }
            return parts;
        }
        var game = Cut(original);
        var cut = mods.Select(m => Cut(m.File)).ToList();
        var merged = Enumerable.Range(0, layouts.Length)
            .Select(i => MergeRun(game[i], cut.Select(c => c[i]).ToList(), layouts[i], mods.Select(m => m.Mod).ToList(), i, null)).ToArray();
        int grows = Array.FindIndex(perItem, p => p > 0);
        return [.. BitConverter.GetBytes(merged[grows].Length / perItem[grows]), .. merged.SelectMany(m => m)];
    }

    /// <summary>Merges flat files (no container) of fields <paramref name="width"/> bytes wide.</summary>
    public static byte[] MergeFlat(byte[] original, IReadOnlyList<(string Mod, byte[] File)> mods, int width, List<Conflict>? conflicts = null) =>
        MergeRun(original, mods.Select(m => m.File).ToList(), [width], mods.Select(m => m.Mod).ToList(), 0, conflicts);

    private static byte[] MergeRun(byte[] original, List<byte[]> mods, int[] recordWidths, List<string> names, int segment, List<Conflict>? conflicts)
    {
        int longest = Math.Max(original.Length, mods.Max(m => m.Length));
        var result = new byte[longest];
        original.CopyTo(result, 0);
        var touched = new SortedDictionary<long, (int Width, List<string> Mods)>();
        for (int k = 0; k < mods.Count; k++)
        {
            var mod = mods[k];
            int common = Math.Min(mod.Length, original.Length);
            int offset = 0;
            while (offset < common)
            {
                var (start, width) = FieldOf(offset, recordWidths);
                int end = Math.Min(start + width, common);
                bool differs = false;
                for (int b = start; b < end; b++)
                    differs |= mod[b] != original[b];
                if (differs)
                {
                    Array.Copy(mod, start, result, start, end - start);
                    if (!touched.TryGetValue(start, out var entry))
                        touched[start] = entry = (end - start, []);
                    entry.Mods.Add(names[k]);
                }
                offset = end;
            }
            if (mod.Length > original.Length)
                Array.Copy(mod, original.Length, result, original.Length, mod.Length - original.Length);
        }
        if (conflicts is not null)
        {
            foreach (var (start, (width, who)) in touched)
            {
                if (who.Count > 1)
                    conflicts.Add(new Conflict(segment, start, width, who.ToArray()));
            }
            // Appended bytes two or more mods both reach: one range per distinct set of mods.
            var ends = mods.Select(m => m.Length).Where(l => l > original.Length).Distinct().Order().ToList();
            int from = original.Length;
            foreach (int end in ends)
            {
                var who = names.Where((_, k) => mods[k].Length >= end).ToArray();
                if (who.Length > 1)
                    conflicts.Add(new Conflict(segment, from, end - from, who));
                from = end;
            }
        }
        return result;
    }

    private static (int Start, int Width) FieldOf(int offset, int[] recordWidths)
    {
        int record = recordWidths.Sum();
        int recordStart = offset / record * record;
        int at = recordStart;
        foreach (int width in recordWidths)
        {
            if (offset < at + width)
                return (at, width);
            at += width;
        }
        throw new InvalidOperationException("unreachable: widths cover the record");
    }

    private static byte[][] Split(byte[] file, int count, bool littleEndian)
    {
        var segments = new byte[count][];
        int at = 0;
        for (int i = 0; i < count; i++)
        {
            int length = littleEndian
                ? file[at] | (file[at + 1] << 8) | (file[at + 2] << 16) | (file[at + 3] << 24)
                : (file[at] << 24) | (file[at + 1] << 16) | (file[at + 2] << 8) | file[at + 3];
            segments[i] = file.AsSpan(at + 4, length).ToArray();
            at += 4 + length;
            at = (at + 15) / 16 * 16;
        }
        return segments;
    }

    /// <summary>
    /// Merges P5R NAME.TBLs given as 19 lists of strings (each without its NUL): per index, a mod's string different
    /// from the game's replaces it (later mods win), strings past the game's count are appended.
    /// </summary>
    public static List<string>[] MergeNames(List<string>[] game, IReadOnlyList<List<string>[]> mods)
    {
        var result = game.Select(l => l.ToList()).ToArray();
        foreach (var mod in mods)
        {
            for (int pair = 0; pair < game.Length; pair++)
            {
                for (int i = 0; i < mod[pair].Count; i++)
                {
                    if (i < game[pair].Count && mod[pair][i] == game[pair][i])
                        continue;
                    if (i < result[pair].Count)
                        result[pair][i] = mod[pair][i];
                    else
                        result[pair].Add(mod[pair][i]);
                }
            }
        }
        return result;
    }
}
