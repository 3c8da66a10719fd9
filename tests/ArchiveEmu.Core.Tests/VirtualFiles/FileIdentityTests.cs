using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>A file's identity is the same whichever way it is read, and holds what the cache key needs: ctime and inode.</summary>
public sealed class FileIdentityTests
{
    [Test]
    public void Of_APathAndOfItsOpenHandle_AreTheSameIdentity()
    {
        using var folder = new TempDirectory("identity");
        var path = folder.Write("a.bin", TestData.Random(1, 3000));
        using var handle = File.OpenHandle(path);
        var identity = FileIdentity.Of(path);
        Assert.That(FileIdentity.Of(handle), Is.EqualTo(identity));
        Assert.That(FileIdentity.From(FileStatus.Of(path), path), Is.EqualTo(identity));
        Assert.That(identity.Length, Is.EqualTo(3000));
        Assert.That(identity.LastWriteUtc, Is.EqualTo(new FileInfo(path).LastWriteTimeUtc));
        Assert.That(identity.ChangeUtc, Is.GreaterThan(DateTime.UnixEpoch));
        if (OperatingSystem.IsLinux() || OperatingSystem.IsWindows())
            Assert.That(identity.Inode, Is.Not.Zero, "the temp folder's file system keeps inodes");
    }

    [Test]
    public void Of_AFolderOrAMissingFile_IsFileNotFoundNamingIt()
    {
        using var folder = new TempDirectory("identity");
        Directory.CreateDirectory(folder["sub"]);
        Assert.That(() => FileIdentity.Of(folder["sub"]), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("sub"));
        Assert.That(() => FileIdentity.Of(folder["missing.bin"]), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("missing.bin"));
    }

    [Test]
    public void ToString_ShowsSizeTimesToTheTickAndTheInode_OrADashWhereTheInodeIsMadeUp()
    {
        var modified = new DateTime(2026, 11, 27, 13, 5, 6, DateTimeKind.Utc).AddTicks(1_234_567);
        var changed = new DateTime(2025, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddTicks(7);

        Assert.That(new FileIdentity(4096, modified, changed, 42).ToString(),
            Is.EqualTo("4096 bytes, modified 2026-11-27 13:05:06.1234567Z, changed 2025-01-02 03:04:05.0000007Z, inode 42"));
        Assert.That(new FileIdentity(0, modified, modified, 0).ToString(),
            Is.EqualTo("0 bytes, modified 2026-11-27 13:05:06.1234567Z, changed 2026-11-27 13:05:06.1234567Z, inode -"));
    }
}
