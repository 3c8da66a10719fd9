using System.Numerics;
using System.Runtime.CompilerServices;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// Finds the segment holding a virtual offset. Sequential readers hit a last-segment hint; random readers index a
/// bucket table (the file cut into about as many equal power-of-two buckets as it has segments; each bucket names the
/// segment its first byte is in), which leaves one or two candidates in the common case and a short branch-free search
/// where small segments crowd one bucket. Why: the fence-and-block search this replaced was a chain of ~14 dependent
/// loads at 16,384 segments; a bucket is one load (docs/BENCHMARKS-JOURNAL.md, "Engine per-read cost"). The candidates
/// are checked against the segments' own ends, not the starts array: the read needs the segment's line anyway, so a
/// file-backed read touches two cold lines instead of three (issue 34: +100 → +60–64 ns over a direct pread).
/// </summary>
internal sealed class SegmentLookup
{
    private readonly Segment[] _segments;
    private readonly long[] _starts;
    private readonly int[] _buckets; // _buckets[b]: the segment holding offset b << _shift; one more entry: the last segment
    private readonly int _shift;
    private int _hint; // last segment a read ended in; a racy hint is still a valid guess

    public SegmentLookup(Segment[] segments)
    {
        _segments = segments;
        _starts = new long[segments.Length];
        for (int i = 0; i < segments.Length; i++)
            _starts[i] = segments[i].VirtualOffset;
        if (segments.Length == 0)
        {
            _buckets = [];
            return;
        }

        long lastByte = Math.Max(0, segments[^1].VirtualEnd - 1);
        int target = (int)BitOperations.RoundUpToPowerOf2((uint)segments.Length);
        while (lastByte >> _shift >= target)
            _shift++;
        _buckets = new int[(lastByte >> _shift) + 2];
        int segment = 0;
        for (int b = 0; b < _buckets.Length - 1; b++)
        {
            long start = (long)b << _shift;
            while (segment + 1 < _starts.Length && _starts[segment + 1] <= start)
                segment++;
            _buckets[b] = segment;
        }
        _buckets[^1] = _starts.Length - 1;
    }

    /// <summary>Index of the segment holding <paramref name="offset"/>, which must be in [0, Length).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Find(long offset)
    {
        var segments = _segments;
        int hint = _hint;
        if ((uint)hint < (uint)segments.Length && segments[hint].VirtualOffset <= offset)
        {
            // Sequential readers land in the hinted segment or the next one.
            if (offset < segments[hint].VirtualEnd)
                return hint;
            if (hint + 1 < segments.Length && offset < segments[hint + 1].VirtualEnd)
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
        // The answer is between the segment of this bucket's first byte and that of the next bucket's.
        long bucket = offset >> _shift;
        int lo = _buckets[bucket];
        // Most buckets hold the start of one segment or none: the bucket's segment, or the one after it, read in place (the
        // line the read goes on to use), without the starts array: a file-backed read's kernel work evicts both between reads.
        var segments = _segments;
        if (offset < segments[lo].VirtualEnd)
            return lo;
        int hi = _buckets[bucket + 1];
        if (lo + 1 <= hi && offset < segments[lo + 1].VirtualEnd)
            return lo + 1;
        return LastAtOrBelow(_starts, lo, hi - lo + 1, offset);
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
