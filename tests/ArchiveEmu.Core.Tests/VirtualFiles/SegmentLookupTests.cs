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
}
