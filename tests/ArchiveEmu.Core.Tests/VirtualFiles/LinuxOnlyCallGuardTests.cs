using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// Every entry point into a Linux-only call (libc's mmap/madvise, cachestat, posix_fadvise, open/fsync of a folder,
/// /proc and /sys) answers off Linux without reaching it: there is no libc on Windows, so a call that got through
/// would throw DllNotFoundException. Run on Linux (the calls work) and under Wine by .ci/windows-check (they decline).
/// </summary>
public sealed class LinuxOnlyCallGuardTests
{
    [Test]
    public void PageCacheCallsAndHints_OffLinux_DeclineWithoutCallingLibc()
    {
        using var dir = new TempDirectory("guards");
        var path = dir.Write("a.bin", TestData.Random(1, 3 << 20));
        using var handle = File.OpenHandle(path);

        bool broughtIn = PageCacheReads.BringIn(handle, 0, 1 << 20, 3 << 20);
        bool cached = PageCacheReads.IsCached(handle, 0, 1 << 20);
        Assert.That(() => ReadAheadHint.WillNeedSoon(handle, 0, 1 << 20), Throws.Nothing);
        if (!OperatingSystem.IsLinux())
        {
            Assert.That(broughtIn, Is.False, "BringIn declines off Linux");
            Assert.That(cached, Is.True, "IsCached cannot tell off Linux, and then says there is nothing to do");
            Assert.That(PageCacheReads.CanTell, Is.False);
        }
    }

    [Test]
    public void DirectoryFlushAndStorageKind_OffLinux_AreNoOpsAndUnknown()
    {
        using var dir = new TempDirectory("guards");
        dir.Write("x/a.bin", [1]);
        Assert.That(() => DirectorySync.Flush(dir["x"]), Throws.Nothing);
        var kind = StorageKind.Of(dir.Path);
        if (!OperatingSystem.IsLinux())
            Assert.That(kind, Is.EqualTo(StorageKind.Unknown));
    }

    [Test]
    public void ReadingAVirtualFile_ColdAndWarm_ServesTheBytes_OnEveryPlatform()
    {
        // The streaming path that brings ranges in ahead of a reader (BackgroundPrefetch, PageCacheReads) on Linux.
        using var dir = new TempDirectory("guards");
        var a = TestData.Random(2, 5 << 20);
        var b = TestData.Random(3, 3 << 20);
        var pathA = dir.Write("a.bin", a);
        var pathB = dir.Write("b.bin", b);
        using var file = new VirtualFileBuilder(new FileHandlePool(4))
            .AppendFile(pathA, 4096, a.Length - 8192).AppendBytes(new byte[100]).AppendFile(pathB, 0, b.Length).Build();
        byte[] expected = [.. a.AsSpan(4096, a.Length - 8192), .. new byte[100], .. b];
        for (int pass = 0; pass < 2; pass++)
        {
            var all = new byte[expected.Length];
            for (int at = 0; at < all.Length;)
                at += file.Read(at, all.AsSpan(at, Math.Min(256 * 1024, all.Length - at)));
            Assert.That(all, Is.EqualTo(expected), $"pass {pass}");
        }
    }
}
