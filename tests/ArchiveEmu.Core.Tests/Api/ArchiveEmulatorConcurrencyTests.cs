using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// 16 threads use one <see cref="ArchiveEmulator"/> at once: each owns one AFS entry and adds, opens, checks,
/// describes, removes and invalidates, while the others change theirs. Every file a thread opens must show its own
/// entry exactly as that thread left it, and a file opened earlier must keep its bytes while others change the route.
/// </summary>
public sealed class ArchiveEmulatorConcurrencyTests
{
    private const string Afs = "data/tex.afs";

    [Test]
    public void SixteenThreads_EachSeesItsOwnEntryRight_AndOpenFilesNeverChange()
    {
        using var game = new EmulatorTestGame();
        using var emulator = new ArchiveEmulator(game.Game);
        int events = 0;
        emulator.RouteChanged += (_, _) => Interlocked.Increment(ref events);
        var errors = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var threads = Enumerable.Range(0, 16).Select(t => new Thread(() =>
        {
            try
            {
                for (int round = 0; round < 12; round++)
                {
                    var mine = TestData.Random(1000 * t + round, 500 + 97 * t + round);
                    var input = emulator.AddBytes(Afs, EntryKey.ByIndex(t), mine, $"thread{t}");
                    using var withMine = emulator.Open(Afs);
                    var snapshot = EmulatorTestGame.ReadAll(withMine);
                    Check(snapshot, t, mine, "after add");
                    if (emulator.Describe(Afs)[t].Origin != $"thread{t}")
                        errors.Enqueue($"thread {t}: Describe does not name it as the origin of entry {t}");
                    emulator.Remove(input);
                    if (round % 4 == 0)
                        emulator.Invalidate(Afs);
                    using (var without = emulator.Open(Afs))
                        Check(EmulatorTestGame.ReadAll(without), t, game.Originals[t], "after remove");
                    if (!EmulatorTestGame.ReadAll(withMine).AsSpan().SequenceEqual(snapshot))
                        errors.Enqueue($"thread {t}: a file opened earlier changed under its reader");
                }
            }
            catch (Exception e)
            {
                errors.Enqueue($"thread {t}: {e.GetType().Name}: {e.Message}");
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.That(errors, Is.Empty, string.Join("\n", errors.Take(10)));
        Assert.That(events, Is.EqualTo(16 * (12 * 2 + 3)), "one event per add, remove and invalidate");
        Assert.That(emulator.Inputs(Afs), Is.Empty);
        using var final = emulator.Open(Afs);
        Assert.That(EmulatorTestGame.ReadAll(final), Is.EqualTo(File.ReadAllBytes(game["game/" + Afs])));

        void Check(byte[] afs, int entry, byte[] expected, string when)
        {
            if (EmulatorTestGame.AfsCount(afs) != 16 || !EmulatorTestGame.AfsEntry(afs, entry).AsSpan().SequenceEqual(expected))
                errors.Enqueue($"thread {entry}: entry {entry} wrong {when}");
        }
    }
}
