namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Merges one segment (or one flat file): which source each byte of the result comes from, and what each mod changed.
/// Each mod is compared with the original (never with an earlier mod's result), each changed byte widened to its field;
/// mods apply in load order, so a field several mods changed takes the last one's bytes. The result is as long as the
/// longest of the original and the mods; a byte past the original's end comes from the last mod that reaches it.
/// </summary>
internal sealed class SegmentMerge
{
    /// <summary>The byte's source in <see cref="Owners"/>: the original.</summary>
    public const int Original = -1;

    private SegmentMerge(int[] owners, int originalLength) => (Owners, OriginalLength) = (owners, originalLength);

    /// <summary>Per byte of the merged segment: the index of the mod its byte comes from, or <see cref="Original"/>.</summary>
    public int[] Owners { get; }

    /// <summary>The original segment's length; bytes past it were added by mods.</summary>
    public int OriginalLength { get; }

    /// <summary>Per mod (null: it has no file here): the fields it changed, as (start, width).</summary>
    public List<(long Start, int Width)>?[] Changed { get; private init; } = [];

    /// <summary>Fields (or appended ranges) two or more mods changed: start, width, the mods in load order.</summary>
    public List<(long Start, int Width, List<int> Mods)> Contested { get; } = [];

    /// <summary>Merges <paramref name="mods"/> (null where a mod gives no segment) over <paramref name="original"/>.</summary>
    public static SegmentMerge Run(byte[] original, IReadOnlyList<byte[]?> mods, FieldLayout layout)
    {
        int length = original.Length;
        foreach (var mod in mods)
            length = Math.Max(length, mod?.Length ?? 0);
        var owners = new int[length];
        Array.Fill(owners, Original, 0, original.Length);
        var merge = new SegmentMerge(owners, original.Length) { Changed = new List<(long, int)>?[mods.Count] };

        var touchedBy = new Dictionary<long, (int Width, List<int> Mods)>();
        for (int k = 0; k < mods.Count; k++)
        {
            if (mods[k] is not { } mod)
                continue;
            var changed = merge.Changed[k] = [];
            int common = Math.Min(original.Length, mod.Length);
            for (int j = FirstDifference(original, mod, 0, common); j < common; j = FirstDifference(original, mod, j, common))
            {
                var (start, width) = layout.FieldAt(j);
                long end = Math.Min(start + width, common); // a field cut by a segment's end ends there
                changed.Add((start, (int)(end - start)));
                for (long p = start; p < end; p++)
                    owners[p] = k;
                if (!touchedBy.TryGetValue(start, out var entry))
                    touchedBy.Add(start, entry = ((int)(end - start), []));
                entry.Mods.Add(k);
                j = (int)end;
            }
            for (int p = original.Length; p < mod.Length; p++)
                owners[p] = k; // later mods overwrite: the last mod reaching a byte wins it
            CountAppended(changed, original.Length, mod.Length, layout);
        }
        foreach (var (start, (width, contenders)) in touchedBy.OrderBy(t => t.Key))
        {
            if (contenders.Count > 1)
                merge.Contested.Add((start, width, contenders));
        }
        merge.AddContestedGrowth(mods);
        return merge;
    }

    // The bytes a mod appends count as the layout's fields that start there (a field begun before the end counts once).
    private static void CountAppended(List<(long, int)> changed, int from, int to, FieldLayout layout)
    {
        for (long p = from; p < to;)
        {
            var (start, width) = layout.FieldAt(p);
            long end = Math.Min(start + width, to);
            changed.Add((p, (int)(end - p)));
            p = end;
        }
    }

    // Where two or more mods append over the same bytes, each run with the same set of mods is one contested range.
    private void AddContestedGrowth(IReadOnlyList<byte[]?> mods)
    {
        var lengths = new List<int>();
        for (int k = 0; k < mods.Count; k++)
        {
            if (mods[k] is { } mod && mod.Length > OriginalLength)
                lengths.Add(mod.Length);
        }
        lengths.Sort();
        long from = OriginalLength;
        foreach (int end in lengths.Distinct())
        {
            var reaching = Enumerable.Range(0, mods.Count).Where(k => mods[k] is { } m && m.Length >= end).ToList();
            if (reaching.Count > 1 && end > from)
                Contested.Add((from, end - (int)from, reaching));
            from = end;
        }
    }

    private static int FirstDifference(byte[] a, byte[] b, int from, int end)
    {
        int same = a.AsSpan(from, end - from).CommonPrefixLength(b.AsSpan(from, end - from));
        return from + same;
    }
}
