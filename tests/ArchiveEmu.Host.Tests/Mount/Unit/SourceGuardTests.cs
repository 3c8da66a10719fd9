using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Mount;
using ArchiveEmu.TestSupport;
using NUnit.Framework.Constraints;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

/// <summary>The guard over a served file's reads: a read of bytes from a file changed since the build fails, the others do not.</summary>
public sealed class SourceGuardTests
{
    [Test]
    public void ReadChecked_AfterAnInPlaceRewrite_FailsOnlyForReadsTouchingThatFile()
    {
        using var temp = new TempDirectory("guard");
        var loose = temp.Write("loose.bin", TestData.Random(1, 1000));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendBytes(new byte[100]).AppendFile(loose, 0, 1000).Build();
        var guard = SourceGuard.For(file)!;
        Assert.That(Read(file, guard, 0, 1100), Is.EqualTo(1100));

        File.WriteAllBytes(loose, TestData.Random(2, 1000)); // same size, new mtime
        File.SetLastWriteTimeUtc(loose, DateTime.UtcNow.AddSeconds(5));
        Assert.That(Read(file, guard, 0, 100), Is.EqualTo(100), "only the in-memory header");
        Assert.That(() => Read(file, guard, 50, 100), ThrowsChanged("loose.bin"), "across the header's end");
        Assert.That(() => Read(file, guard, 500, 10), ThrowsChanged("loose.bin"), "inside the file");
    }

    // Issue 17: what cp -p or touch -r leave — new bytes under the old size and mtime — moves the ctime, which the guard compares.
    [Test]
    public void ReadChecked_AfterAnInPlaceRewriteKeepingSizeAndMtime_Fails()
    {
        LinuxOnly.Require("cp -p (coreutils)");
        using var temp = new TempDirectory("guard");
        var loose = temp.Write("loose.bin", TestData.Random(1, 1000));
        var staging = temp.Write("staging.bin", TestData.Random(2, 1000));
        File.SetLastWriteTimeUtc(staging, File.GetLastWriteTimeUtc(loose));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendFile(loose, 0, 1000).Build();
        var guard = SourceGuard.For(file)!;
        Assert.That(Read(file, guard, 0, 1000), Is.EqualTo(1000));

        var cp = ExternalTool.Run("cp", "-p", staging, loose); // in place: same inode, size and mtime
        Assert.That(cp.ExitCode, Is.Zero, cp.ToString());
        Assert.That(File.ReadAllBytes(loose), Is.EqualTo(TestData.Random(2, 1000)));
        Assert.That(() => Read(file, guard, 0, 1000), ThrowsChanged("loose.bin"));
    }

    [Test]
    public void ReadChecked_OfAFileThatReadsTwoFiles_FailsOnlyForReadsOfTheChangedOne()
    {
        using var temp = new TempDirectory("guard");
        var first = temp.Write("first.bin", TestData.Random(1, 1000));
        var second = temp.Write("second.bin", TestData.Random(2, 1000));
        using var file = new VirtualFileBuilder(new FileHandlePool(4))
            .AppendFile(first, 0, 1000).AppendZeros(24).AppendFile(second, 0, 1000).Build();
        var guard = SourceGuard.For(file)!;
        Assert.That(Read(file, guard, 0, 2024), Is.EqualTo(2024), "opens both files' handles while they are as built");

        File.WriteAllBytes(second, TestData.Random(3, 2000)); // in place, another size: the open handle reads the new bytes
        Assert.That(Read(file, guard, 0, 1024), Is.EqualTo(1024), "the first file and the zeros after it");
        Assert.That(() => Read(file, guard, 900, 200), ThrowsChanged("second.bin"), "across the zeros into the changed file");
    }

    [Test]
    public void For_AFileWithoutFileSources_IsNull()
    {
        using var file = new VirtualFileBuilder(new FileHandlePool(1)).AppendBytes(new byte[10]).Build();
        Assert.That(SourceGuard.For(file), Is.Null);
    }

    private static int Read(VirtualFile file, SourceGuard guard, long offset, int count) =>
        file.ReadChecked(offset, new byte[count], new ReadRun(), guard);

    private static IResolveConstraint ThrowsChanged(string name) =>
        Throws.InstanceOf<IOException>().With.Message.Contains(name).And.Message.Contains("changed since this version was built");
}
