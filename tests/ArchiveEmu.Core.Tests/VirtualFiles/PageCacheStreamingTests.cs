using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>The streaming policy's figures, as measured (docs/BENCHMARKS.md): a change to one is a change of behaviour, made here on purpose.</summary>
public sealed class PageCacheStreamingTests
{
    [Test]
    public void VirtualFilesAndMergedPacks_ShareEveryFigure_ButTheMergedExtentLimit()
    {
        var files = PageCacheStreaming.ForVirtualFiles;
        var packs = PageCacheStreaming.ForMergedPacks;
        Assert.That(PageCacheStreaming.MinStreamingRead, Is.EqualTo(64 * 1024));
        Assert.That(files.MinStreamRun, Is.EqualTo(8L << 20));
        Assert.That((files.MinShortRun, files.ShortRunAheadBytes), Is.EqualTo((512L << 10, 1L << 20)));
        Assert.That(files.AsksAheadOf((512L << 10) - 1), Is.False);
        Assert.That(files.AsksAheadOf(512L << 10), Is.True);
        Assert.That((files with { BringsIn = false }).AsksAheadOf(1L << 30), Is.False, "ArchiveEmu:BringIn=false: no hint either");
        Assert.That((files.BringsIn, files.BringInBytes, files.AheadBytes, files.AheadSegments, files.MaxBroughtInLength),
            Is.EqualTo((true, 4L << 20, 16L << 20, 32, long.MaxValue)));
        Assert.That(packs, Is.EqualTo(files with { MaxBroughtInLength = 128L << 20 }));
    }

    [Test]
    public void AStream_IsARunOfAtLeastMinStreamRun_AndReachesNoFurtherThanItsRun()
    {
        var files = PageCacheStreaming.ForVirtualFiles;
        Assert.That(files.IsStream((8L << 20) - 1), Is.False);
        Assert.That(files.IsStream(8L << 20), Is.True);
        Assert.That((files with { BringsIn = false }).IsStream(1L << 30), Is.False);
        Assert.That(PageCacheStreaming.Within(files.BringInBytes, 6L << 20), Is.EqualTo(3L << 20), "a 6 MiB run brings in 3 MiB, not 4");
        Assert.That(PageCacheStreaming.Within(files.AheadBytes, 1L << 30), Is.EqualTo(16L << 20));
    }

    [Test]
    public void BringsInRead_OnlyAStreamingReadOfAStreamWithinTheLimit_AndNothingWhenOff()
    {
        var packs = PageCacheStreaming.ForMergedPacks;
        Assert.That(packs.BringsInRead(64 * 1024, 128L << 20), Is.True);
        Assert.That(packs.BringsInRead(64 * 1024 - 1, 128L << 20), Is.False, "smaller than a streaming read");
        Assert.That(packs.BringsInRead(64 * 1024, (128L << 20) + 1), Is.False, "past the limit: the kernel's read-ahead");
        Assert.That((packs with { BringsIn = false }).BringsInRead(1 << 20, 1 << 20), Is.False);
    }
}
