using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// A FUSE file system makes its inode numbers up (statfs f_type 0x65735546): a file read through a mount has an inode
/// that may be another one at the next mount, so its identity — in a cache key and the handle pool's check — holds 0.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class MadeUpInodeTests(string fuse) : SampleGameMountFixture(fuse)
{
    [Test]
    public void AFileReadThroughTheMount_HasInodeZero_ByPathAndByHandle_ThoughStatShowsANumber()
    {
        ExternalTool.Require("stat");
        var path = _game.Mounted("data/readme.txt");
        var stat = ExternalTool.Run("stat", "-L", "-c", "%i", path);
        Assert.That(stat.ExitCode, Is.Zero, stat.ToString());
        Assert.That(stat.StdOut.Trim(), Is.Not.EqualTo("0"), "the mount reports an inode number: the identity drops it");
        var fileSystem = ExternalTool.Run("stat", "-f", "-c", "%t", path);
        Assert.That(fileSystem.StdOut.Trim(), Is.EqualTo("65735546"), "a FUSE file system");

        using var handle = File.OpenHandle(path);
        Assert.That(FileIdentity.Of(path).Inode, Is.Zero);
        Assert.That(FileIdentity.Of(handle).Inode, Is.Zero);
        Assert.That(FileIdentity.Of(handle).Length, Is.EqualTo(new FileInfo(path).Length).And.GreaterThan(0));
    }
}
