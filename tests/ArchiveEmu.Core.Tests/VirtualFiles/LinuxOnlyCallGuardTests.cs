using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// Every entry point into a Linux-only call (libc's mmap/madvise, cachestat, posix_fadvise, open/fsync of a folder,
/// /proc and /sys) answers off Linux without reaching it: there is no libc on Windows, so a call that got through
/// would throw DllNotFoundException. Run under Wine by .ci/windows-check (they decline) and on Linux, where each test
/// shows the same calls reach the kernel (cached pages seen and brought in, mountinfo read, a folder's fsync refused).
/// </summary>
public sealed class LinuxOnlyCallGuardTests
{
    [Test]
    public void PageCacheCallsAndHints_OffLinux_DeclineWithoutCallingLibc_OnLinux_ReachTheKernel()
    {
        using var dir = new TempDirectory("guards");
        var path = dir.Write("a.bin", TestData.Random(1, 3 << 20));
        using var handle = File.OpenHandle(path);
        bool? coldBefore = null;
        if (OperatingSystem.IsLinux())
        {
            PageCacheProbe.Drop(path);
            coldBefore = PageCacheReads.IsCached(handle, 0, 1 << 20);
        }

        bool broughtIn = PageCacheReads.BringIn(handle, 0, 1 << 20, 3 << 20);
        bool cached = PageCacheReads.IsCached(handle, 0, 1 << 20);
        Assert.That(() => ReadAheadHint.WillNeedSoon(handle, 0, 1 << 20), Throws.Nothing);
        if (!OperatingSystem.IsLinux())
        {
            Assert.That(broughtIn, Is.False, "BringIn declines off Linux");
            Assert.That(cached, Is.True, "IsCached cannot tell off Linux, and then says there is nothing to do");
            Assert.That(PageCacheReads.CanTell, Is.False);
            return;
        }
        CiMachine.Require(PageCacheReads.CanTell ? null : "cachestat(2) (Linux 6.5 or later) to see a page cache call reach the kernel");
        Assert.That(coldBefore, Is.False, "pages just dropped are not cached: IsCached asked the kernel");
        Assert.That(broughtIn, Is.True, "BringIn mapped and populated the range");
        Assert.That(cached, Is.True, "and the kernel now holds it");
    }

    [Test]
    public void DirectoryFlushAndStorageKind_OffLinux_AreNoOpsAndUnknown_OnLinux_AskTheSystem()
    {
        using var dir = new TempDirectory("guards");
        dir.Write("x/a.bin", [1]);
        Assert.That(() => DirectorySync.Flush(dir["x"]), Throws.Nothing);
        var kind = StorageKind.Of(dir.Path);
        if (!OperatingSystem.IsLinux())
        {
            Assert.That(kind, Is.EqualTo(StorageKind.Unknown));
            Assert.That(() => DirectorySync.Flush(dir["missing"]), Throws.Nothing, "nothing to flush off Linux, not even a missing folder");
            return;
        }
        Assert.That(kind, Is.Not.EqualTo(StorageKind.Unknown), "the temp folder's mount was found in /proc/self/mountinfo");
        Assert.That(() => DirectorySync.Flush(dir["missing"]), Throws.InstanceOf<IOException>(), "open(2) of the folder reached the kernel");
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
