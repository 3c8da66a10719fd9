using ArchiveEmu.Host.Fuse;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Fuse;

/// <summary>The game disk's read-ahead, which bounds the mount's and the host's (issue 47), as util-linux reports it.</summary>
public sealed class ReadAheadTests
{
    [Test]
    public void OfDiskUnder_IsTheReadAheadLsblkReportsForTheDeviceHoldingTheFolder()
    {
        LinuxOnly.Require("findmnt and lsblk (util-linux)");
        using var temp = new TempDirectory("readahead");
        var source = ExternalTool.Run("findmnt", "-no", "SOURCE", "-T", temp.Path);
        Assert.That(source.ExitCode, Is.Zero, source.ToString());
        string device = source.StdOut.Trim();
        if (!device.StartsWith("/dev/", StringComparison.Ordinal))
            Assert.Ignore($"{temp.Path} is on {device}, no block device: OfDiskUnder says null there, and nothing bounds the read-ahead");
        var lsblk = ExternalTool.Run("lsblk", "-ndo", "RA", device);
        Assert.That(lsblk.ExitCode, Is.Zero, lsblk.ToString());
        Assert.That(ReadAhead.OfDiskUnder(temp.Path), Is.EqualTo(long.Parse(lsblk.StdOut.Trim(), System.Globalization.CultureInfo.InvariantCulture) * 1024));
    }

    [Test]
    public void OfDiskUnder_AFileSystemWithNoBlockDevice_IsNull()
    {
        LinuxOnly.Require("/proc (procfs)");
        Assert.That(ReadAhead.OfDiskUnder("/proc/self"), Is.Null);
    }
}
