using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A reader going through a virtual file whose sources are not cached brings each slice in whole, in large folios
/// (<see cref="PageCacheReads"/>), so later warm reads copy out fast; bytes are the same either way, and a source that
/// shrank is still one clear error, never a signal.
/// </summary>
public sealed class LargeFolioReadTests
{
    private const int MiB = 1 << 20;
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("folios");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void IsCached_TellsWhetherEveryPageOfARangeIsInThePageCache()
    {
        string path = _dir.Write("data.bin", TestData.Random(1, 4 * MiB));
        using var handle = File.OpenHandle(path);
        RandomAccess.Read(handle, new byte[4 * MiB], 0);
        Assume.That(PageCacheReads.CanTell, "cachestat(2) needs Linux 6.5");
        Assert.That(PageCacheReads.IsCached(handle, 0, 4 * MiB), Is.True, "just read");

        PageCacheProbe.Drop(path);
        Assert.That(PageCacheReads.IsCached(handle, 0, 4 * MiB), Is.False, "dropped");
        RandomAccess.Read(handle, new byte[4096], MiB);
        Assert.That(PageCacheReads.IsCached(handle, MiB, 4096), Is.True, "one page read back");
        Assert.That(PageCacheReads.IsCached(handle, 3 * MiB + 12345, 1000), Is.False, "far from it");
    }

    [Test]
    public void BringIn_FillsTheRange_AndDeclinesASmallSliceOfABigFile()
    {
        string path = _dir.Write("data.bin", TestData.Random(2, 8 * MiB));
        using var handle = File.OpenHandle(path);
        PageCacheProbe.Drop(path);
        Assume.That(PageCacheReads.CanTell, "cachestat(2) needs Linux 6.5");
        Assume.That(PageCacheReads.IsCached(handle, 0, 8 * MiB), Is.False, "the file's pages could not be dropped");

        Assert.That(PageCacheReads.BringIn(handle, MiB + 100, 3 * MiB, 8 * MiB), Is.True);
        Assert.That(PageCacheReads.IsCached(handle, MiB + 100, 3 * MiB), Is.True);

        // 64 KiB in the middle of a 2 MiB folio: bringing the whole folio in would read 31 times what was asked.
        Assert.That(PageCacheReads.BringIn(handle, 6 * MiB + 65536, 65536, 8 * MiB), Is.False);
        Assert.That(PageCacheReads.IsCached(handle, 6 * MiB, 2 * MiB), Is.False, "declined means nothing read");
    }

    [Test]
    public void AColdStreamingPass_OverGappedSlices_LeavesTheSourceInLargeFolios()
    {
        Assume.That(PageCacheProbe.WhyFoliosAreHidden(), Is.Null, () => $"cannot see folios: {PageCacheProbe.WhyFoliosAreHidden()}");
        var bytes = TestData.Random(3, 16 * MiB);
        string original = _dir.Write("original.bin", bytes);
        string control = _dir.Write("control.bin", bytes);
        // Slices with gaps between them (as an original around injected entries), none aligned to a folio.
        (long Offset, long Length)[] slices = [(4096, 3 * MiB), (4 * MiB + 8192, 2 * MiB + 4096), (7 * MiB + 100, 4 * MiB), (12 * MiB + 5000, 3 * MiB)];
        var builder = new VirtualFileBuilder(new FileHandlePool(4));
        foreach (var (offset, length) in slices)
            builder.AppendFile(original, offset, length);
        using var file = builder.Build();
        PageCacheProbe.Drop(original);
        PageCacheProbe.Drop(control);

        var read = ReadThrough(file);
        Assert.That(read, Is.EqualTo(slices.SelectMany(s => bytes.Skip((int)s.Offset).Take((int)s.Length)).ToArray()));

        using (var plain = File.OpenHandle(control))
        {
            var buffer = new byte[MiB];
            for (long at = 0; at < bytes.Length; at += MiB)
                RandomAccess.Read(plain, buffer, at);
        }
        double controlShare = PageCacheProbe.ShareInLargeFolios(control, 0, bytes.Length);
        Assume.That(controlShare, Is.GreaterThan(0.5), $"this file system keeps even a sequential read in small pages ({controlShare:P0})");
        // Most, not all: on a loaded machine the kernel's own read-ahead sometimes fills part of a slice in small pages
        // before the background threads get there (seen: one slice at 66%). Without the bring-in every slice is at ~0%.
        var shares = slices.Select(s => PageCacheProbe.ShareInLargeFolios(original, s.Offset, s.Length)).ToArray();
        Assert.That(shares.Average(), Is.GreaterThan(0.8), $"shares {string.Join(", ", shares.Select(x => x.ToString("P0")))} (a plain sequential read of the same file: {controlShare:P0})");
        Assert.That(shares.Min(), Is.GreaterThan(0.4), $"shares {string.Join(", ", shares.Select(x => x.ToString("P0")))}");
    }

    [Test]
    public void SmallSlicesBetweenSmallGaps_ComeInLargeFoliosToo()
    {
        Assume.That(PageCacheProbe.WhyFoliosAreHidden(), Is.Null, () => $"cannot see folios: {PageCacheProbe.WhyFoliosAreHidden()}");
        var bytes = TestData.Random(6, 12 * MiB);
        string original = _dir.Write("original.bin", bytes);
        // 256 KiB slices with 64 KiB left out between them (small injected entries): alone, each slice is an eighth of
        // the 2 MiB folio it falls in; with its neighbours, the folio is 80% needed.
        var slices = Enumerable.Range(0, 36).Select(k => (Offset: 4096L + k * (320L << 10), Length: 256L << 10)).ToArray();
        var builder = new VirtualFileBuilder(new FileHandlePool(4));
        foreach (var (offset, length) in slices)
            builder.AppendFile(original, offset, length);
        using var file = builder.Build();
        PageCacheProbe.Drop(original);

        Assert.That(ReadThrough(file), Is.EqualTo(slices.SelectMany(s => bytes.Skip((int)s.Offset).Take((int)s.Length)).ToArray()));
        double share = slices.Average(s => PageCacheProbe.ShareInLargeFolios(original, s.Offset, s.Length));
        Assert.That(share, Is.GreaterThan(0.8), "without counting the neighbours: ~0%");
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
