using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Host.Tests.Fuse;

/// <summary>
/// The end of serving reaches the host's handler whichever comes first. An unmount as the mount starts ended the workers
/// before the handler was attached, and the host kept running with nothing mounted
/// (InPlaceRecoveryTests.Unmount_ALiveInPlaceMount_TheHostStops, under load).
/// </summary>
public sealed class UnexpectedEndTests
{
    [Test]
    public void AHandlerAttachedAfterTheEnd_IsCalledAtOnce_WithItsCode()
    {
        var end = new UnexpectedEnd();
        end.Report(7);
        var seen = new List<int>();
        end.Handle(seen.Add);
        Assert.That(seen, Is.EqualTo(new[] { 7 }));
    }

    [Test]
    public void AHandlerAttachedBefore_IsCalledOnce_ByTheFirstReportOnly()
    {
        var end = new UnexpectedEnd();
        var seen = new List<int>();
        end.Handle(seen.Add);
        Assert.That(seen, Is.Empty, "not before the end");
        end.Report(0); // one worker of several sees ENODEV first
        end.Report(5);
        Assert.That(seen, Is.EqualTo(new[] { 0 }));
    }

    [Test]
    public void ReportsRacingTheHandler_CallItExactlyOnce()
    {
        for (int round = 0; round < 200; round++)
        {
            var end = new UnexpectedEnd();
            int calls = 0;
            using var go = new Barrier(3);
            var workers = Enumerable.Range(0, 2).Select(code => new Thread(() => { go.SignalAndWait(); end.Report(code); })).ToList();
            workers.ForEach(w => w.Start());
            go.SignalAndWait();
            end.Handle(_ => Interlocked.Increment(ref calls));
            workers.ForEach(w => w.Join());
            Assert.That(calls, Is.EqualTo(1), $"round {round}");
        }
    }
}
