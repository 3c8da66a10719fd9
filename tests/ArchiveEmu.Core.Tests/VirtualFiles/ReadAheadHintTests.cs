using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A reader going through a virtual file whose sources are not cached gets the next file slices requested ahead of it once
/// its run shows a stream (<see cref="PageCacheStreaming.MinStreamRun"/>; brought in by a background thread, or
/// posix_fadvise WILLNEED where the kernel cannot say what is cached); a pass over cached sources, small random reads and a
/// loader's whole-entry reads at random never ask (issue 47). The bytes are the same either way.
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
            var bytes = TestData.Random(i, 300_000 + i); // 30 MB in all: a stream is 8 MiB (MinStreamRun)
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
        long streamRun = PageCacheStreaming.ForVirtualFiles.MinStreamRun;
        var read = ReadThrough(at =>
        {
            int current = _file.FindSegment(Math.Min(at, _file.Length - 1));
            if (at < streamRun)
                Assert.That(_file.HintedThrough, Is.EqualTo(-1), $"at {at}: not yet a stream, nothing asked for");
            else if (at < _file.Length)
                Assert.That(_file.HintedThrough, Is.GreaterThanOrEqualTo(Math.Min(current + 1, _file.Segments.Length - 1)),
                    $"at {at}: the next slice is already asked for");
        });
        Assert.That(read, Is.EqualTo(_expected));
        Assert.That(_file.HintedThrough, Is.EqualTo(_file.Segments.Length - 1));
    }

    [Test]
    public void WithBringInOff_ASequentialReaderOfColdSources_AsksForNothing()
    {
        // The host's ArchiveEmu:BringIn=false: the pool's policy, handed to every virtual file built over it.
        var builder = new VirtualFileBuilder(new FileHandlePool(8) { Streaming = PageCacheStreaming.ForVirtualFiles with { BringsIn = false } });
        foreach (var path in _paths)
            builder.AppendFile(path, 0, new FileInfo(path).Length);
        using var file = builder.Build();
        _paths.ForEach(PageCacheProbe.Drop);
        var buffer = new byte[256 * 1024];
        for (long at = 0; at < file.Length;)
        {
            int n = file.Read(at, buffer);
            Assert.That(buffer.AsSpan(0, n).SequenceEqual(_expected.AsSpan((int)at, n)), $"bytes at {at}");
            at += n;
        }
        Assert.That(file.HintedThrough, Is.EqualTo(-1));
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
    public void ALoaderReadingWholeEntriesAtRandom_InBigReads_NeverHints()
    {
        // A game's loader: whole entries (here 64 KiB-1 MiB spans) at random offsets, each in one or a few big reads. The
        // size of a read is no evidence of a stream; before issue 47 every such read brought in 4 MiB around it.
        // The archive: 32 sparse 16 MiB files (512 MiB that take no disk and are never cached until read), as a game's is big.
        var builder = new VirtualFileBuilder(new FileHandlePool(8));
        for (int i = 0; i < 32; i++)
        {
            string path = Path.Combine(_dir.Path, $"sparse{i}.bin");
            using (var stream = File.Create(path))
                stream.SetLength(16 << 20);
            builder.AppendFile(path, 0, 16 << 20);
        }
        using var archive = builder.Build();
        var random = new Random(47);
        for (int k = 0; k < 200; k++)
        {
            int length = 64 * 1024 << random.Next(5);
            var buffer = new byte[length];
            archive.ReadExactly(random.NextInt64(archive.Length - length), buffer);
            Assert.That(buffer.AsSpan().IndexOfAnyExcept((byte)0), Is.EqualTo(-1));
        }
        Assert.That(archive.HintedThrough, Is.EqualTo(-1));
    }

    [Test]
    public void ALoaderGoingThroughOneEntry_HasTheNextBytesAskedOfTheKernel_NoFurtherThanHalfItsRun()
    {
        // Four 128 KiB pieces one after another (a normal user's mount asks for 128 KiB at a time): a run of 512 KiB
        // (MinShortRun) has the next 256 KiB (half the run) asked of the kernel, running over into the next files; nothing
        // beyond. Counted by fincore (util-linux). Handles with FADV_RANDOM, as the host's: the disk's own read-ahead would
        // read past the pieces by itself.
        LinuxOnly.Require("posix_fadvise(WILLNEED) and fincore (util-linux)");
        var builder = new VirtualFileBuilder(new FileHandlePool(8, FileOptions.RandomAccess));
        foreach (var path in _paths)
            builder.AppendFile(path, 0, new FileInfo(path).Length);
        using var file = builder.Build();
        var reader = new ReadRun();
        _paths.ForEach(PageCacheProbe.Drop);
        long start = file.Segments[40].VirtualOffset;
        var buffer = new byte[128 * 1024];
        for (int piece = 0; piece < 4; piece++)
        {
            Assert.That(file.Read(start + piece * buffer.Length, buffer, reader), Is.EqualTo(buffer.Length));
            Assert.That(buffer, Is.EqualTo(_expected.AsSpan((int)(start + piece * buffer.Length), buffer.Length).ToArray()));
        }
        long end = start + 4 * buffer.Length + 2 * buffer.Length; // what was read and what was asked ahead
        long Expected(int j) => Math.Max(0, Math.Min(end, file.Segments[j].VirtualOffset + file.Segments[j].Length) - Math.Max(start, file.Segments[j].VirtualOffset));
        Assert.That(Expected(42), Is.GreaterThan(0), "the asked-for bytes reach file 42");
        Assert.That(() => Enumerable.Range(40, 3).All(j => Resident(_paths[j]) >= Expected(j) - 4096), Is.True.After(2000, 50),
            string.Join(", ", Enumerable.Range(40, 3).Select(j => $"file {j}: {Resident(_paths[j])} of {Expected(j)} bytes cached")));
        Assert.That(Resident(_paths[42]), Is.LessThan(Expected(42) + (128 << 10)), "no further than half the run (the kernel rounds to its own read size)");
        Assert.That(Resident(_paths[43]), Is.Zero, "nothing of the file after");
        Assert.That(file.HintedThrough, Is.EqualTo(-1), "not a stream: nothing brought in");
    }

    private static long Resident(string path)
    {
        var result = ExternalTool.Run("fincore", "--bytes", "--noheadings", "--output", "RES", path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return long.Parse(result.StdOut.Trim(), System.Globalization.CultureInfo.InvariantCulture);
    }

    [Test]
    public void TwoStreamsAtOnce_EachWithItsOwnRun_AreBothStreams_WhereOneSharedRunSeesNeither()
    {
        // Two readers taking turns through two halves of the file, as a loader and a streaming thread do. Each with its own
        // run (an open file in the host, a VirtualFileStream) is a stream once it has read MinStreamRun; through the run
        // readers share (VirtualFile.Read) their turns break each other's runs and nothing is asked ahead.
        long half = _file.Length / 2;
        Assert.That(HintedAfterTwoReaders(new ReadRun(), new ReadRun(), half), Is.GreaterThan(0), "two runs");
        var shared = new ReadRun();
        Assert.That(HintedAfterTwoReaders(shared, shared, half), Is.EqualTo(-1), "one run for both");
    }

    private int HintedAfterTwoReaders(ReadRun first, ReadRun second, long half)
    {
        var builder = new VirtualFileBuilder(new FileHandlePool(8));
        foreach (var path in _paths)
            builder.AppendFile(path, 0, new FileInfo(path).Length);
        using var file = builder.Build();
        _paths.ForEach(PageCacheProbe.Drop);
        var buffer = new byte[128 * 1024];
        long streamRun = PageCacheStreaming.ForVirtualFiles.MinStreamRun;
        for (long at = 0; at < streamRun + 8 * buffer.Length; at += buffer.Length)
        {
            Assert.That(file.Read(at, buffer, first), Is.EqualTo(buffer.Length));
            Assert.That(buffer, Is.EqualTo(_expected.AsSpan((int)at, buffer.Length).ToArray()));
            Assert.That(file.Read(half + at, buffer, second), Is.EqualTo(buffer.Length));
            Assert.That(buffer, Is.EqualTo(_expected.AsSpan((int)(half + at), buffer.Length).ToArray()));
        }
        return file.HintedThrough;
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
