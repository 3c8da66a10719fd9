using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

public sealed class SegmentLookupTests
{
    [TestCase(1)]
    [TestCase(2)]
    [TestCase(15)]
    [TestCase(16)]
    [TestCase(17)]
    [TestCase(33)]
    [TestCase(255)]
    [TestCase(16384)]
    [TestCase(16391)]
    public void Find_EveryBoundaryInAnyOrder_MatchesLinearSearch(int count)
    {
        var random = new Random(count);
        var segments = new Segment[count];
        long at = 0;
        for (int i = 0; i < count; i++)
        {
            long length = random.Next(1, 50);
            segments[i] = new Segment(at, length, ZeroSource.Instance, 0);
            at += length;
        }
        var lookup = new SegmentLookup(segments);

        // First, last and one-past-last byte of each segment, visited in random order (the hint goes stale).
        var offsets = segments.SelectMany(s => new[] { s.VirtualOffset, s.VirtualEnd - 1, Math.Min(s.VirtualEnd, at - 1) }).ToArray();
        random.Shuffle(offsets);
        foreach (long offset in offsets)
        {
            int expected = Array.FindLastIndex(segments, s => s.VirtualOffset <= offset);
            int found = lookup.Find(offset);
            Assert.That(found, Is.EqualTo(expected), $"offset {offset} of {at}");
            lookup.Remember(found);
        }
    }

    // Lengths from 1 byte to 2^40 bytes, so buckets hold anything from part of one segment to thousands of them.
    [TestCase(3, 1)]
    [TestCase(100, 2)]
    [TestCase(5000, 3)]
    [TestCase(16384, 4)]
    public void Find_SegmentsOfWildlyDifferentSizes_MatchesLinearSearch(int count, int seed)
    {
        var random = new Random(seed);
        var segments = new Segment[count];
        long at = 0;
        for (int i = 0; i < count; i++)
        {
            long length = random.Next(4) == 0 ? 1L << random.Next(20, 41) : random.Next(1, 8);
            segments[i] = new Segment(at, length, ZeroSource.Instance, 0);
            at += length;
        }
        var lookup = new SegmentLookup(segments);

        var offsets = segments.SelectMany(s => new[] { s.VirtualOffset, s.VirtualEnd - 1, s.VirtualOffset + s.Length / 2 })
            .Concat(Enumerable.Range(0, 1000).Select(_ => random.NextInt64(at))).ToArray();
        random.Shuffle(offsets);
        var starts = segments.Select(s => s.VirtualOffset).ToArray();
        foreach (long offset in offsets)
        {
            int index = Array.BinarySearch(starts, offset);
            int expected = index >= 0 ? index : ~index - 1;
            int found = lookup.Find(offset);
            Assert.That(found, Is.EqualTo(expected), $"offset {offset} of {at}");
            lookup.Remember(found);
        }
    }

    [Test]
    public void Find_OneSegment_AnyOffsetIsSegmentZero()
    {
        var lookup = new SegmentLookup([new Segment(0, 1L << 50, ZeroSource.Instance, 0)]);
        Assert.That(new[] { 0L, 1L, (1L << 50) - 1 }.Select(lookup.Find), Is.All.EqualTo(0));
    }
}
