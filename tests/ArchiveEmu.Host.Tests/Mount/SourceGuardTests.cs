using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Mount;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount;

public sealed class SourceGuardTests
{
    [Test]
    public void Unchanged_AfterAnInPlaceRewrite_IsFalseOnlyForReadsTouchingThatFile()
    {
        using var temp = new TempDirectory("guard");
        var loose = temp.Write("loose.bin", TestData.Random(1, 1000));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendBytes(new byte[100]).AppendFile(loose, 0, 1000).Build();
        var guard = SourceGuard.For(file)!;
        Assert.That(guard.Unchanged(0, 1100), Is.True);

        File.WriteAllBytes(loose, TestData.Random(2, 1000)); // same size, new mtime
        File.SetLastWriteTimeUtc(loose, DateTime.UtcNow.AddSeconds(5));
        Assert.That(guard.Unchanged(0, 100), Is.True, "only the in-memory header");
        Assert.That(guard.Unchanged(50, 100), Is.False);
        Assert.That(guard.Unchanged(500, 10), Is.False);
    }

    // Issue 17: what cp -p or touch -r leave — new bytes under the old size and mtime — moves the ctime, which the guard compares.
    [Test]
    public void Unchanged_AfterAnInPlaceRewriteKeepingSizeAndMtime_IsFalse()
    {
        LinuxOnly.Require("cp -p (coreutils)");
        using var temp = new TempDirectory("guard");
        var loose = temp.Write("loose.bin", TestData.Random(1, 1000));
        var staging = temp.Write("staging.bin", TestData.Random(2, 1000));
        File.SetLastWriteTimeUtc(staging, File.GetLastWriteTimeUtc(loose));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendFile(loose, 0, 1000).Build();
        var guard = SourceGuard.For(file)!;
        Assert.That(guard.Unchanged(0, 1000), Is.True);

        var cp = ExternalTool.Run("cp", "-p", staging, loose); // in place: same inode, size and mtime
        Assert.That(cp.ExitCode, Is.Zero, cp.ToString());
        Assert.That(File.ReadAllBytes(loose), Is.EqualTo(TestData.Random(2, 1000)));
        Assert.That(guard.Unchanged(0, 1000), Is.False);
    }

    [Test]
    public void For_AFileWithoutFileSources_IsNull()
    {
        using var file = new VirtualFileBuilder(new FileHandlePool(1)).AppendBytes(new byte[10]).Build();
        Assert.That(SourceGuard.For(file), Is.Null);
    }
}
