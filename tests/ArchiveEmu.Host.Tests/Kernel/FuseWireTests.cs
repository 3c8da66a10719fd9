using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Fuse.Kernel;
using ArchiveEmu.TestSupport;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Tests.Kernel;

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class FuseWireTests
{
    [Test]
    public void Attr_FromARealStat_CarriesSizeModeTimesAndTheNodeAsInode()
    {
        using var temp = new TempDirectory("wire");
        var path = temp.Write("f.bin", new byte[12_345]);
        var modified = new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc).AddTicks(1234567);
        File.SetLastWriteTimeUtc(path, modified);
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead);
        var stat = new byte[256];
        Assert.That(LibC.Stat(path, stat), Is.Zero);

        var attr = new byte[FuseWire.AttrSize];
        FuseWire.Attr(stat, 42, attr);

        Assert.That(FuseWire.Read64(attr, 0), Is.EqualTo(42UL), "ino is the node");
        Assert.That(FuseWire.Read64(attr, 8), Is.EqualTo(12_345UL), "size");
        Assert.That(FuseWire.Read64(attr, 16), Is.EqualTo(FuseWire.Read64(stat, 64)), "blocks, as st_blocks");
        long seconds = (long)FuseWire.Read64(attr, 32);
        uint nanoseconds = FuseWire.Read32(attr, 52);
        Assert.That(DateTime.UnixEpoch.AddSeconds(seconds).AddTicks(nanoseconds / 100), Is.EqualTo(modified), "mtime");
        Assert.That(FuseWire.Read32(attr, 60), Is.EqualTo(0x8000u | 0b110_100_000), "mode: regular file, rw-r-----");
        Assert.That(FuseWire.Read32(attr, 64), Is.EqualTo(1u), "one link");
        Assert.That(FuseWire.Read32(attr, 68), Is.EqualTo(LibC.GetEuid()), "uid");
        Assert.That(FuseWire.Read32(attr, 80), Is.GreaterThanOrEqualTo(512u), "blksize");
    }

    [Test]
    public void StatFs_FromARealStatVfs_CarriesBlocksAndSizes()
    {
        var statvfs = new byte[112];
        Assert.That(LibC.StatVfs("/", statvfs), Is.Zero);
        var kstatfs = new byte[FuseWire.StatFsOutSize];
        FuseWire.StatFs(statvfs, kstatfs);
        var drive = new DriveInfo("/");
        ulong blockSize = FuseWire.Read32(kstatfs, 48); // frsize: the unit of the block counts
        Assert.That(FuseWire.Read64(kstatfs, 0) * blockSize, Is.EqualTo((ulong)drive.TotalSize));
        Assert.That(FuseWire.Read32(kstatfs, 44), Is.EqualTo(255u), "namelen");
    }
}
