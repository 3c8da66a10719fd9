using ArchiveEmu.TestSupport;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>Many threads reading one virtual file at once: every byte checked.</summary>
public sealed class ConcurrentReadTests
{
    [Test]
    public void Read_SixteenThreadsAtOnce_EveryByteMatches()
    {
        using var folder = new TempDirectory("threads");
        var backing = RandomVirtualFile.WriteBackingFiles(folder, 31, 6, 128 * 1024);
        using var vf = RandomVirtualFile.Create(31, 2000, backing);
        RunSixteenReaders(vf);
    }

    [Test]
    public void Read_SixteenThreadsWithPoolSmallerThanFileCount_EvictionNeverCorruptsBytes()
    {
        // 40 backing files through a 3-handle pool: handles are evicted while other threads read them.
        using var folder = new TempDirectory("evict");
        var backing = RandomVirtualFile.WriteBackingFiles(folder, 37, 40, 16 * 1024);
        var pool = new FileHandlePool(3);
        using (var vf = RandomVirtualFile.Create(37, 3000, backing, pool))
        {
            RunSixteenReaders(vf);
            Assert.That(pool.OpenHandleCount, Is.LessThanOrEqualTo(3));
            Assert.That(pool.OpenCount, Is.GreaterThan(40), "the pool should have re-opened evicted files");
        }
        Assert.That(pool.OpenHandleCount, Is.Zero);
        Assert.That(pool.FileCount, Is.Zero);
    }

    private static void RunSixteenReaders(RandomVirtualFile vf)
    {
        var expected = vf.Expected;
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
        var threads = Enumerable.Range(0, 16).Select(t => new Thread(() =>
        {
            try
            {
                var random = new Random(1000 + t);
                var buffer = new byte[16384];
                for (int i = 0; i < 1500; i++)
                {
                    long offset = random.NextInt64(expected.Length);
                    int length = random.Next(1, buffer.Length);
                    int read = vf.File.Read(offset, buffer.AsSpan(0, length));
                    int wanted = (int)Math.Min(length, expected.Length - offset);
                    if (read != wanted || !buffer.AsSpan(0, read).SequenceEqual(expected.AsSpan((int)offset, read)))
                        failures.Add($"thread {t} read {i}: {length} bytes at {offset} came back wrong ({read} bytes)");
                }
            }
            catch (Exception e)
            {
                failures.Add($"thread {t}: {e}");
            }
        })).ToList();

        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        Assert.That(failures, Is.Empty);
    }
}
