using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.TestSupport;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Tests.Fuse;

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class StatFieldsTests
{
    // A lookup names a game file's version from its stat; an open names it with FileIdentity.Of. If the two ever
    // disagreed, every open after a lookup would look like a new version and get ESTALE.
    [TestCase(0L)]
    [TestCase(1234567L)]
    [TestCase(9999999L)]
    public void Identity_FromAStat_IsWhatFileIdentityOfReads(long extraTicks)
    {
        using var temp = new TempDirectory("statfields");
        var path = temp.Write("f.bin", new byte[54_321]);
        File.SetLastWriteTimeUtc(path, new DateTime(2023, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddTicks(extraTicks));
        var stat = new byte[256];
        Assert.That(LibC.Stat(path, stat), Is.Zero);

        var identity = FileIdentity.From(ArchiveEmu.Core.Interop.FileStatus.FromLibcStat(stat), path); // as the mount's lookup names it

        Assert.That(identity, Is.EqualTo(FileIdentity.Of(path)));
        Assert.That(identity.Length, Is.EqualTo(54_321));
        Assert.That(identity.LastWriteUtc.Ticks % TimeSpan.TicksPerSecond, Is.EqualTo(extraTicks));
    }
}
