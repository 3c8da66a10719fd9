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

    [Test]
    public void For_AFileWithoutFileSources_IsNull()
    {
        using var file = new VirtualFileBuilder(new FileHandlePool(1)).AppendBytes(new byte[10]).Build();
        Assert.That(SourceGuard.For(file), Is.Null);
    }
}
