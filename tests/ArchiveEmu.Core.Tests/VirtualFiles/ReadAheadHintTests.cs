using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A reader going through a virtual file whose sources are not cached gets the next file slices requested ahead of it
/// (brought in by a background thread, or posix_fadvise WILLNEED where the kernel cannot say what is cached); a pass over
/// cached sources and small random reads never ask. The bytes are the same either way.
/// </summary>
public sealed class ReadAheadHintTests
{
    private TempDirectory _dir = null!;
    private VirtualFile _file = null!;
    private byte[] _expected = [];
    private readonly List<string> _paths = [];

    [SetUp]
    public void Build()
    {
        _dir = new TempDirectory("readahead");
        _paths.Clear();
        var builder = new VirtualFileBuilder(new FileHandlePool(8));
        var all = new List<byte>();
        for (int i = 0; i < 100; i++)
        {
            var bytes = TestData.Random(i, 100_000 + i);
            _paths.Add(_dir.Write($"f{i}.bin", bytes));
            builder.AppendFile(_paths[^1], 0, bytes.Length);
            all.AddRange(bytes);
        }
        _file = builder.Build();
        _expected = all.ToArray();
    }

    [TearDown]
    public void Dispose()
    {
        _file.Dispose();
        _dir.Dispose();
    }

    [Test]
    public void ASequentialReaderOfColdSources_KeepsSlicesRequestedAheadOfIt_ToTheEnd()
    {
        _paths.ForEach(PageCacheProbe.Drop);
        var read = ReadThrough(at =>
        {
            int current = _file.FindSegment(Math.Min(at, _file.Length - 1));
            if (at < _file.Length)
                Assert.That(_file.HintedThrough, Is.GreaterThanOrEqualTo(Math.Min(current + 1, _file.Segments.Length - 1)),
                    $"at {at}: the next slice is already asked for");
        });
        Assert.That(read, Is.EqualTo(_expected));
        Assert.That(_file.HintedThrough, Is.EqualTo(_file.Segments.Length - 1));
    }

    [Test]
    public void ASequentialReaderOfCachedSources_AsksForNothing()
    {
        Assume.That(PageCacheReads.CanTell, "cachestat(2) needs Linux 6.5; without it every pass asks");
        foreach (var path in _paths)
            _ = File.ReadAllBytes(path);
        Assert.That(ReadThrough(_ => { }), Is.EqualTo(_expected));
        Assert.That(_file.HintedThrough, Is.EqualTo(-1));
    }

    [Test]
    public void ASequentialPassOverCachedSources_AllocatesNothingPerRead()
    {
        Assume.That(PageCacheReads.CanTell, "cachestat(2) needs Linux 6.5; without it every pass asks");
        foreach (var path in _paths)
            _ = File.ReadAllBytes(path);
        var builder = new VirtualFileBuilder(new FileHandlePool(_paths.Count)); // every handle stays open: no pool churn
        foreach (var path in _paths)
            builder.AppendFile(path, 0, new FileInfo(path).Length);
        using var file = builder.Build();
        var buffer = new byte[256 * 1024];
        for (long at = 0; at < file.Length;)
            at += file.Read(at, buffer); // opens the handles and warms the JIT
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (long at = 0; at < file.Length;)
            at += file.Read(at, buffer);
        Assert.That(GC.GetAllocatedBytesForCurrentThread() - before, Is.Zero);
    }

    // The whole file in 256 KiB reads (streaming reads), calling afterEach with the offset reached after each one.
    private List<byte> ReadThrough(Action<long> afterEach)
    {
        var buffer = new byte[256 * 1024];
        var read = new List<byte>();
        for (long at = 0; at < _file.Length;)
        {
            int n = _file.Read(at, buffer);
            read.AddRange(buffer.AsSpan(0, n).ToArray());
            at += n;
            afterEach(at);
        }
        return read;
    }

    [Test]
    public void SmallRandomReads_NeverHint()
    {
        var random = new Random(1);
        var buffer = new byte[4096];
        for (int k = 0; k < 2000; k++)
        {
            long at = random.NextInt64(_file.Length - buffer.Length);
            _file.ReadExactly(at, buffer);
            Assert.That(buffer, Is.EqualTo(_expected.AsSpan((int)at, buffer.Length).ToArray()));
        }
        Assert.That(_file.HintedThrough, Is.EqualTo(-1));
    }
}
