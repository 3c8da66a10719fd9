using System.Runtime.CompilerServices;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Finds the segment holding a virtual offset. Sequential readers hit a last-segment hint; random
/// readers search a small fence array (every 16th start, which stays in cache) and then scan one
/// 16-start block, so a lookup costs about one cold cache line instead of a binary search's log2(n).
/// </summary>
internal sealed class SegmentLookup
{
    private const int BlockShift = 4;
    private const int BlockSize = 1 << BlockShift;

    private readonly long[] _starts;
    private readonly long[] _fences; // _starts[k * BlockSize]
    private int _hint; // last segment a read ended in; a racy hint is still a valid guess

    public SegmentLookup(ReadOnlySpan<Segment> segments)
    {
        _starts = new long[segments.Length];
        for (int i = 0; i < segments.Length; i++)
            _starts[i] = segments[i].VirtualOffset;
        _fences = new long[(segments.Length + BlockSize - 1) >> BlockShift];
        for (int k = 0; k < _fences.Length; k++)
            _fences[k] = _starts[k << BlockShift];
    }

    /// <summary>Index of the segment holding <paramref name="offset"/>, which must be in [0, Length).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Find(long offset)
    {
        var starts = _starts;
        int hint = _hint;
        if ((uint)hint < (uint)starts.Length && starts[hint] <= offset)
        {
            // Sequential readers land in the hinted segment or the next one.
            if (hint + 1 == starts.Length || offset < starts[hint + 1])
                return hint;
            if (hint + 2 == starts.Length || offset < starts[hint + 2])
                return hint + 1;
        }
        return Search(offset);
    }

    /// <summary>Remembers where a read ended, for the next sequential read.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Remember(int index)
    {
        if (_hint != index)
            _hint = index; // written only on change: concurrent readers keep the cache line shared
    }

    private int Search(long offset)
    {
        int block = LastAtOrBelow(_fences, 0, _fences.Length, offset);
        int first = block << BlockShift;
        int end = Math.Min(first + BlockSize, _starts.Length);
        return LastAtOrBelow(_starts, first, end - first, offset);
    }

    /// <summary>The last index i in [from, from+count) with values[i] ≤ target; values[from] ≤ target is given.</summary>
    private static int LastAtOrBelow(long[] values, int from, int count, long target)
    {
        // Branch-free halving: the comparison becomes a conditional move, not a mispredicted jump.
        int lo = from;
        while (count > 1)
        {
            int half = count >> 1;
            lo = values[lo + half] <= target ? lo + half : lo;
            count -= half;
        }
        return lo;
    }
}
