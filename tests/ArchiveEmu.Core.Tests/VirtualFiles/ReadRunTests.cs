using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>A reader's run: reads near where it has got to (within the slack FUSE's out-of-order requests need) add their bytes; a jump ends it; small reads do neither.</summary>
public sealed class ReadRunTests
{
    private const int Read = 128 * 1024;

    [Test]
    public void ReadsOneAfterAnother_AddTheirBytesToTheRun_InWhateverOrderTheyArrive()
    {
        var run = new ReadRun();
        Assert.That(run.Record(1_000_000, Read), Is.EqualTo(Read));
        Assert.That(run.Record(1_000_000 + Read, Read), Is.EqualTo(2 * Read));
        Assert.That(run.Record(1_000_000 + 3 * Read, Read), Is.EqualTo(3 * Read), "a request of the read-ahead that overtook the one before it");
        Assert.That(run.Record(1_000_000 + 2 * Read, Read), Is.EqualTo(4 * Read), "the one it overtook");
        Assert.That(run.Record(1_000_000 + 8 * Read, Read), Is.EqualTo(5 * Read), "a loader skipping entries it does not need: only what it read counts");
    }

    [Test]
    public void AReadPastTheSlack_OrBeforeTheRunsStart_StartsANewRun()
    {
        var run = new ReadRun();
        long at = 100L << 20;
        run.Record(at, Read);
        Assert.That(run.Record(at + Read + ReadRun.Slack, Read), Is.EqualTo(2 * Read), "at the slack's edge past the end: still the run");
        long end = at + 2 * Read + ReadRun.Slack;
        Assert.That(run.Record(end - ReadRun.Slack, Read), Is.EqualTo(3 * Read), "at the slack's edge back from the end: still the run");
        Assert.That(run.Record(end - ReadRun.Slack - 1, Read), Is.EqualTo(Read), "further back: a new run");
        Assert.That(run.Record(end + 10 * ReadRun.Slack, Read), Is.EqualTo(Read), "far ahead: a new run");
    }

    [Test]
    public void AskAhead_GivesEachByteOnce_AndForgetsAnotherPlace()
    {
        var run = new ReadRun();
        Assert.That(run.AskAhead(1000, 5000), Is.EqualTo((1000L, 5000L)));
        Assert.That(run.AskAhead(3000, 9000), Is.EqualTo((5000L, 9000L)), "what was asked is not asked again");
        Assert.That(run.AskAhead(4000, 8000), Is.EqualTo((8000L, 8000L)), "all of it asked already: nothing");
        Assert.That(run.AskAhead(500L << 20, (500L << 20) + 100), Is.EqualTo((500L << 20, (500L << 20) + 100)), "far from the last: asked afresh");
        Assert.That(run.AskAhead(10, 20), Is.EqualTo((10L, 20L)), "and back again");
    }

    [Test]
    public void SmallReads_NeitherGrowNorEndTheRun()
    {
        var run = new ReadRun();
        run.Record(0, Read);
        Assert.That(run.Record(500L << 20, PageCacheStreaming.MinStreamingRead - 1), Is.Zero, "a small random read is not looked at");
        Assert.That(run.Record(Read, Read), Is.EqualTo(2 * Read), "and the run goes on");
    }
}
