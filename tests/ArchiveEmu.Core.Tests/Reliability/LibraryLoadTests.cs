using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Tests.MergedCache;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.Reliability;

/// <summary>
/// Load through the library (issue 7): 16 threads of random reads over every format's archive, emulated and from
/// the merged cache, each read checked byte for byte against a reference. Short (2 s) always;
/// ARCHIVEEMU_LOAD_SECONDS=60 for the long run docs/RELIABILITY.md records.
/// </summary>
public sealed class LibraryLoadTests
{
    private static int Seconds => int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_LOAD_SECONDS"), out int s) && s > 0 ? s : 2;

    [Test]
    public void SixteenThreads_RandomReads_EveryByteRight()
    {
        using var game = new CacheTestGame(entries: 64, entrySize: 40_000);
        var cache = game.Cache();
        game.BuildAll(cache, merge: true, ChunkCompression.Lz4);
        // Half the archives served merged, half emulated, from one shared pool of 32 handles (evictions under load).
        var pool = new FileHandlePool(32);
        var files = new List<(string Name, VirtualFile File, byte[] Expected)>();
        foreach (var archive in CacheTestGame.Archives)
        {
            var expected = game.Emulated(archive);
            files.Add(($"{archive} merged", game.Game(cache).OpenFile(archive), expected));
            files.Add(($"{archive} emulated", ArchiveEmu.Core.Serving.EmulatedGame.Open(game.Game().Setup with { Pool = pool }).OpenFile(archive), expected));
        }
        Assert.That(files.Count(f => f.File.Segments[0].Source.Describe().StartsWith("merged cache", StringComparison.Ordinal)),
            Is.EqualTo(CacheTestGame.Archives.Length));

        long reads = 0, bytes = 0;
        var errors = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var stop = Stopwatch.StartNew();
        var threads = Enumerable.Range(0, 16).Select(t => new Thread(() =>
        {
            var random = new Random(t);
            var buffer = new byte[64 * 1024];
            while (stop.Elapsed.TotalSeconds < Seconds && errors.IsEmpty)
            {
                var (name, file, expected) = files[random.Next(files.Count)];
                long offset = random.NextInt64(file.Length);
                int length = random.Next(2) == 0 ? 4096 : random.Next(1, buffer.Length);
                try
                {
                    int n = file.Read(offset, buffer.AsSpan(0, length));
                    if (n != Math.Min(length, file.Length - offset) || !buffer.AsSpan(0, n).SequenceEqual(expected.AsSpan((int)offset, n)))
                        errors.Enqueue($"{name}: wrong bytes at {offset} (+{length})");
                    Interlocked.Increment(ref reads);
                    Interlocked.Add(ref bytes, n);
                }
                catch (Exception e)
                {
                    errors.Enqueue($"{name}: {e.GetType().Name} {e.Message}");
                }
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        foreach (var f in files)
            f.File.Dispose();

        double elapsed = stop.Elapsed.TotalSeconds;
        TestContext.Out.WriteLine($"load: 16 threads, {elapsed:F1} s, {reads:N0} reads ({reads / elapsed:N0}/s, {bytes / elapsed / 1e6:F0} MB/s), {errors.Count} errors");
        Assert.That(errors, Is.Empty, string.Join("\n", errors.Take(10)));
        Assert.That(reads, Is.GreaterThan(1000), "the threads really read");
        Assert.That(pool.OpenHandleCount, Is.Zero, "every handle closed once every file is disposed");
        Assert.That(game.Warnings, Is.Empty);
    }
}
