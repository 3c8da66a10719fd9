using ArchiveEmu.TestSupport;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>Handles come from a bounded pool and none outlives the virtual files that use them.</summary>
[NonParallelizable] // counts this process's open file descriptors
public sealed class HandleLifetimeTests
{
    [Test]
    public void OpenAndDispose_TenThousandVirtualFiles_LeavesNoOpenHandle()
    {
        using var folder = new TempDirectory("leak");
        var paths = Enumerable.Range(0, 50).Select(i => folder.Write($"f{i}.bin", TestData.Random(i, 256))).ToArray();
        var pool = new FileHandlePool(64);

        var buffer = new byte[512];
        for (int i = 0; i < 10_000; i++)
        {
            using var file = new VirtualFileBuilder(pool)
                .AppendFile(paths[i % 50], 0, 256)
                .AppendBytes(new byte[] { 1, 2 })
                .AppendFile(paths[(i * 7) % 50], 10, 200)
                .Build();
            Assert.That(file.Read(0, buffer), Is.EqualTo(458));
        }

        Assert.That(pool.OpenHandleCount, Is.Zero);
        Assert.That(pool.FileCount, Is.Zero);
        Assert.That(DescriptorsUnder(folder.Path), Is.Zero, "no descriptor left on the test's files (others of the process do not count)");
    }

    [Test]
    public void Read_VirtualFileOverTwentyThousandLooseFiles_KeepsHandlesWithinPoolCapacity()
    {
        using var folder = new TempDirectory("many");
        var expected = new List<byte>();
        var builder = new VirtualFileBuilder(new FileHandlePool(32));
        for (int i = 0; i < 20_000; i++)
        {
            var bytes = TestData.Random(i, 16);
            expected.AddRange(bytes);
            builder.AppendFile(folder.Write($"loose/{i:D5}.dds", bytes), 0, 16);
        }

        using var file = builder.Build();
        var all = new byte[file.Length];
        int most = 0;
        for (long at = 0; at < all.Length; at += 4096)
        {
            file.Read(at, all.AsSpan((int)at, (int)Math.Min(4096, all.Length - at)));
            if (at % (64 * 4096) == 0)
                most = Math.Max(most, DescriptorsUnder(folder.Path));
        }

        Assert.That(all, Is.EqualTo(expected.ToArray()));
        // Counted by what they point at, so descriptors other parts of the test process open meanwhile do not count.
        Assert.That(Math.Max(most, DescriptorsUnder(folder.Path)), Is.InRange(1, 32));
    }

    [Test]
    public void Read_AfterDispose_ThrowsObjectDisposed()
    {
        using var folder = new TempDirectory("disposed");
        var file = new VirtualFileBuilder().AppendFile(folder.Write("a.bin", new byte[10]), 0, 10).Build();
        file.Dispose();
        Assert.That(() => file.Read(0, new byte[1]), Throws.InstanceOf<ObjectDisposedException>());
    }

    private static int DescriptorsUnder(string folder)
    {
        LinuxOnly.Require("counts open descriptors in /proc/self/fd");
        return Directory.GetFiles("/proc/self/fd")
            .Count(fd => new FileInfo(fd).LinkTarget is { } target && target.StartsWith(folder + "/", StringComparison.Ordinal));
    }
}
