using ArchiveEmu.Core.Interop;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Interop;

public sealed class DirectorySyncTests
{
    [Test]
    public void Flush_AnExistingFolder_Succeeds_AndAMissingOneIsAnErrorNamingIt()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("directory fsync is only done on Linux");
        using var dir = new TempDirectory("dirsync");
        var file = dir.Write("x/a.bin", [1, 2, 3]);
        Assert.That(() => DirectorySync.Flush(dir["x"]), Throws.Nothing);
        Assert.That(File.ReadAllBytes(file), Is.EqualTo(new byte[] { 1, 2, 3 }));

        var missing = dir["not-there"];
        Assert.That(() => DirectorySync.Flush(missing),
            Throws.InstanceOf<IOException>().With.Message.StartsWith(missing).And.Message.Contains("No such file"));
        Assert.That(() => DirectorySync.Flush(file), Throws.InstanceOf<IOException>().With.Message.Contains("Not a directory"),
            "O_DIRECTORY: a file is refused, not flushed as if it were the folder");
    }
}
