using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A reader going through a virtual file whose sources are not cached brings each slice in whole, in large folios
/// (<see cref="PageCacheReads"/>), so later warm reads copy out fast; bytes are the same either way, and a source that
/// shrank is still one clear error, never a signal. Only states are asserted here, never the outcome of a race: what
/// cachestat says, what a bring-in (waited for, on this thread) leaves in the page cache, and bytes. How much of a whole
/// cold pass ends in large folios depends on the background threads winning against the kernel's own read-ahead, so it
/// is measured, not asserted: <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- folios</c>
/// (docs/BENCHMARKS.md, the large-folio row).
/// </summary>
[NonParallelizable] // drops and probes page-cache state of its own files; nothing else in the process may race it
public sealed class LargeFolioReadTests
{
    private const int MiB = 1 << 20;
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("folios");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    // cachestat(2) and the page-frame view (root, /proc/kpageflags, THP) are CI's machine's: there a test that cannot
    // see them fails (ARCHIVEEMU_CI=1); elsewhere it skips with the reason.
    private static void RequireCachestat()
    {
        LinuxOnly.Require("cachestat(2), the Linux page cache");
        CiMachine.Require(PageCacheReads.CanTell ? null : "cachestat(2) needs Linux 6.5");
    }

    private static void RequireFolioView()
    {
        RequireCachestat();
        CiMachine.Require(PageCacheProbe.WhyFoliosAreHidden() is { } why ? $"cannot see folios: {why}" : null);
    }

    // Whether the whole range is cached, asked until it says so (up to 2 s). Right after a bring-in that succeeded,
    // cachestat on this kernel can count a few pages short while the machine is loaded (seen: 1 to 35 bring-ins in 300,
    // the range whole again at the next call): the state is asserted, not the first glance at it.
    private static bool Cached(SafeFileHandle handle, long offset, long length)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!PageCacheReads.IsCached(handle, offset, length))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(2))
                return false;
            Thread.Sleep(10);
        }
        return true;
    }

    // A dropped file must read as not cached before a test brings it in: else what follows proves nothing.
    private static void DropAndCheck(string path, SafeFileHandle handle, long length)
    {
        PageCacheProbe.Drop(path);
        Assert.That(PageCacheReads.IsCached(handle, 0, length), Is.False, $"{path}: its pages could not be dropped");
    }

    [Test]
    public void IsCached_TellsWhetherEveryPageOfARangeIsInThePageCache()
    {
        RequireCachestat();
        string path = _dir.Write("data.bin", TestData.Random(1, 4 * MiB));
        using var handle = File.OpenHandle(path);
        RandomAccess.Read(handle, new byte[4 * MiB], 0);
        Assert.That(Cached(handle, 0, 4 * MiB), Is.True, "just read");

        DropAndCheck(path, handle, 4 * MiB);
        RandomAccess.Read(handle, new byte[4096], MiB);
        Assert.That(Cached(handle, MiB, 4096), Is.True, "one page read back");
        Assert.That(PageCacheReads.IsCached(handle, 3 * MiB + 12345, 1000), Is.False, "far from it");
    }

    [Test]
    public void IsCached_AnyRangeOfFilesReadWhole_IsTrue_ThoughCachestatUndercountsSomeThatStartInsideALargeFolio()
    {
        // Linux 6.18's cachestat gave 7 of 13 pages for [39433, +48120) of a 100 KB file cached whole (about 1 query in
        // 1,000 here): a warm pass took such a slice for cold and asked for it (ReadAheadHintTests failed 1 run in 3).
        RequireCachestat();
        var random = new Random(7);
        for (int i = 0; i < 100; i++)
        {
            string path = _dir.Write($"f{i}.bin", TestData.Random(100 + i, 100_000 + i * 997));
            using var handle = File.OpenHandle(path);
            long length = RandomAccess.GetLength(handle);
            RandomAccess.Read(handle, new byte[length], 0);
            for (int k = 0; k < 100; k++)
            {
                long offset = random.NextInt64(length - 1), count = random.NextInt64(1, length - offset + 1);
                Assert.That(PageCacheReads.IsCached(handle, offset, count), Is.True, $"{path}: [{offset}, +{count}) of a file just read whole");
            }
        }
    }

    [Test]
    public void BringIn_FillsTheRange_AndDeclinesASmallSliceOfABigFile()
    {
        RequireCachestat();
        string path = _dir.Write("data.bin", TestData.Random(2, 8 * MiB));
        using var handle = File.OpenHandle(path);
        DropAndCheck(path, handle, 8 * MiB);

        Assert.That(PageCacheReads.BringIn(handle, MiB + 100, 3 * MiB, 8 * MiB), Is.True, "brought in");
        Assert.That(Cached(handle, MiB + 100, 3 * MiB), Is.True, "cached");

        // 64 KiB in the middle of a 2 MiB folio: bringing the whole folio in would read 31 times what was asked.
        Assert.That(PageCacheReads.BringIn(handle, 6 * MiB + 65536, 65536, 8 * MiB), Is.False);
        Assert.That(PageCacheReads.IsCached(handle, 6 * MiB, 2 * MiB), Is.False, "declined means nothing read");
    }

    [Test]
    public void BringIn_LeavesTheRangeInLargeFolios()
    {
        RequireFolioView();
        string path = _dir.Write("data.bin", TestData.Random(7, 8 * MiB));
        using var handle = File.OpenHandle(path);
        DropAndCheck(path, handle, 8 * MiB);

        // Waited for on this thread, nothing else reading the file: every page the call brings in is in a PMD folio.
        Assert.That(PageCacheReads.BringIn(handle, MiB + 100, 3 * MiB, 8 * MiB), Is.True);
        Assert.That(PageCacheProbe.ShareInLargeFolios(path, MiB + 100, 3 * MiB), Is.EqualTo(1.0));
    }

    [Test]
    public void BringIn_OfASmallSlice_IsTakenWhenItsNeighboursNeedTheFolio_AndDeclinedAlone()
    {
        RequireFolioView();
        string path = _dir.Write("data.bin", TestData.Random(6, 4 * MiB));
        using var handle = File.OpenHandle(path);
        DropAndCheck(path, handle, 4 * MiB);
        // A 256 KiB slice of a 2 MiB folio, 64 KiB left out on either side (small injected entries): alone it is an eighth of the
        // folio and declined; with the neighbouring slices (the folio less two 64 KiB gaps) it is taken, in a large folio.
        long offset = 2 * MiB + (320 << 10), length = 256 << 10;
        Assert.That(PageCacheReads.BringIn(handle, offset, length, 4 * MiB), Is.False);
        Assert.That(PageCacheReads.IsCached(handle, 2 * MiB, 2 * MiB), Is.False, "declined means nothing read");
        Assert.That(PageCacheReads.BringIn(handle, offset, length, 4 * MiB, alsoNeeded: 2 * MiB - length - (128 << 10)), Is.True);
        Assert.That(PageCacheProbe.ShareInLargeFolios(path, offset, length), Is.EqualTo(1.0));
    }

    [Test]
    public void AColdStreamingPass_OverGappedSlices_ReadsEveryByte_ColdAndWarm()
    {
        RequireCachestat();
        var bytes = TestData.Random(3, 16 * MiB);
        string original = _dir.Write("original.bin", bytes);
        // Slices with gaps between them (as an original around injected entries), none aligned to a folio.
        (long Offset, long Length)[] slices = [(4096, 3 * MiB), (4 * MiB + 8192, 2 * MiB + 4096), (7 * MiB + 100, 4 * MiB), (12 * MiB + 5000, 3 * MiB)];
        var builder = new VirtualFileBuilder(new FileHandlePool(4));
        foreach (var (offset, length) in slices)
            builder.AppendFile(original, offset, length);
        using var file = builder.Build();
        using var handle = File.OpenHandle(original);
        DropAndCheck(original, handle, bytes.Length);

        var expected = slices.SelectMany(s => bytes.Skip((int)s.Offset).Take((int)s.Length)).ToArray();
        Assert.That(ReadThrough(file), Is.EqualTo(expected), "cold: bring-in, background threads and the kernel's read-ahead at once");
        Assert.That(ReadThrough(file), Is.EqualTo(expected), "warm");
    }

    [Test]
    public void ASourceThatShrankWhileNotCached_IsOneIOExceptionNamingIt()
    {
        string path = _dir.Write("loose.bin", TestData.Random(4, 6 * MiB));
        var builder = new VirtualFileBuilder(new FileHandlePool(4));
        builder.AppendFile(path, 0, 6 * MiB);
        using var file = builder.Build();
        var buffer = new byte[MiB];
        file.ReadExactly(0, buffer); // the handle is open now: the pool's identity check at open is behind us
        File.WriteAllBytes(path, TestData.Random(5, MiB)); // in place: same inode, 1 MiB now
        PageCacheProbe.Drop(path);

        var error = Assert.Throws<IOException>(() => file.ReadExactly(2 * MiB, buffer));
        Assert.That(error!.Message, Does.StartWith(path).And.Contain("shorter than when the archive was built"));
    }

    /// <summary>The whole file in 1 MiB reads: a streaming reader, as a game loading the archive is.</summary>
    internal static byte[] ReadThrough(VirtualFile file)
    {
        var all = new byte[file.Length];
        for (long at = 0; at < file.Length;)
            at += file.Read(at, all.AsSpan((int)at, (int)Math.Min(MiB, file.Length - at)));
        return all;
    }
}
