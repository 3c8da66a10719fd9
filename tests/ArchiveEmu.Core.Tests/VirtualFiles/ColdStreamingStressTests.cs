using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// Streaming readers on cold sources, with pages dropped under them, virtual files disposed while the background
/// threads still hold requests for them, and a small handle pool evicting: every byte is still right and nothing
/// escapes (an exception on a background thread would end the test process). 3 s in CI;
/// ARCHIVEEMU_LOAD_SECONDS=60 for the long run docs/RELIABILITY.md records.
/// </summary>
public sealed class ColdStreamingStressTests
{
    private const int MiB = 1 << 20;
    private static int Seconds => int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_LOAD_SECONDS"), out int s) && s > 0 ? s : 3;

    [Test]
    public void FourReaders_DroppingAndDisposing_EveryByteMatches()
    {
        LinuxOnly.Require("drops pages from the Linux page cache while reading (posix_fadvise)");
        using var dir = new TempDirectory("coldstress");
        var original = TestData.Random(20, 24 * MiB);
        string originalPath = dir.Write("original.bin", original);
        var loose = Enumerable.Range(0, 12).Select(k => TestData.Random(30 + k, 100_000 + k * 70_000)).ToArray();
        var loosePaths = loose.Select((bytes, k) => dir.Write($"loose{k}.bin", bytes)).ToArray();
        var all = loosePaths.Append(originalPath).ToArray();
        var pool = new FileHandlePool(4);
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
        var until = DateTime.UtcNow.AddSeconds(Seconds);
        long passes = 0;

        var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            var random = new Random(t);
            var buffer = new byte[MiB];
            try
            {
                for (int pass = 0; DateTime.UtcNow < until || pass < 3; pass++)
                {
                    // An original read around injected files, as an emulated archive is.
                    var builder = new VirtualFileBuilder(pool);
                    var expected = new List<byte>();
                    long at = random.Next(4096);
                    for (int k = 0; k < loose.Length && at < original.Length; k++)
                    {
                        int slice = (int)Math.Min(random.Next(64 * 1024, 3 * MiB), original.Length - at);
                        builder.AppendFile(originalPath, at, slice);
                        expected.AddRange(original.AsSpan((int)at, slice).ToArray());
                        builder.AppendFile(loosePaths[k], 0, loose[k].Length);
                        expected.AddRange(loose[k]);
                        at += slice + random.Next(0, 2 * MiB);
                    }
                    using var file = builder.Build();
                    Interlocked.Increment(ref passes);
                    var want = expected.ToArray();
                    if (random.Next(2) == 0)
                        PageCacheProbe.Drop(all[random.Next(all.Length)]);
                    long stopAt = random.Next(3) == 0 ? file.Length / 2 : file.Length; // some leave mid-way: their requests go stale
                    for (long offset = 0; offset < stopAt;)
                    {
                        int n = file.Read(offset, buffer);
                        if (!buffer.AsSpan(0, n).SequenceEqual(want.AsSpan((int)offset, n)))
                            failures.Add($"reader {t} pass {pass}: bytes at {offset} differ");
                        offset += n;
                    }
                }
            }
            catch (Exception e)
            {
                failures.Add($"reader {t}: {e}");
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        TestContext.Out.WriteLine($"{passes} passes in {Seconds} s");
        Assert.That(failures, Is.Empty);
        Assert.That(pool.FileCount, Is.Zero, "every virtual file let go of its files");
    }
}
