using ArchiveEmu.Core.Interop;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Interop;

/// <summary>FileStatus says what .NET says where .NET says it, and adds what it does not: the inode and the change time.</summary>
public sealed class FileStatusTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void Create() => _dir = new TempDirectory("filestatus");

    [TearDown]
    public void Dispose() => _dir.Dispose();

    [Test]
    public void Of_AFile_AgreesWithFileInfoOnSizeAndWriteTime()
    {
        var path = _dir.Write("a.bin", TestData.Random(1, 12_345));
        var status = FileStatus.Of(path);
        var info = new FileInfo(path);
        Assert.That(status.Length, Is.EqualTo(info.Length));
        Assert.That(status.Modified.ToDateTime(), Is.EqualTo(info.LastWriteTimeUtc));
        Assert.That(status.IsDirectory, Is.False);
        Assert.That(FileStatus.Of(_dir.Path).IsDirectory, Is.True);
    }

    [Test]
    public void Of_AnOpenHandle_IsTheStatusOfItsFile()
    {
        var path = _dir.Write("a.bin", TestData.Random(2, 4096));
        using var handle = File.OpenHandle(path);
        Assert.That(FileStatus.Of(handle), Is.EqualTo(FileStatus.Of(path)));
    }

    [Test]
    public void Inode_IsStableAcrossStats_AndDiffersBetweenFiles()
    {
        Assume.That(OperatingSystem.IsLinux() || OperatingSystem.IsWindows(), "only these systems have a file index");
        var a = _dir.Write("a.bin", [1]);
        var b = _dir.Write("b.bin", [2]);
        ulong first = FileStatus.Of(a).Inode;
        Assert.That(FileStatus.Of(a).Inode, Is.EqualTo(first));
        Assert.That(FileStatus.Of(a).Inode, Is.Not.EqualTo(FileStatus.Of(b).Inode));
        Assert.That(FileStatus.Of(a).Device, Is.EqualTo(FileStatus.Of(b).Device));
    }

    [Test]
    public void Changed_MovesOnAChmod_WhileModifiedStays()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.Ignore("a chmod is a Unix change");
            return;
        }
        var path = _dir.Write("a.bin", [1, 2, 3]);
        File.SetLastWriteTimeUtc(path, new DateTime(2020, 1, 2, 3, 4, 5, DateTimeKind.Utc));
        var before = FileStatus.Of(path);
        Thread.Sleep(20); // more than a coarse timestamp tick
        File.SetUnixFileMode(path, UnixFileMode.UserRead);
        var after = FileStatus.Of(path);
        Assert.That(after.Changed, Is.Not.EqualTo(before.Changed));
        Assert.That(after.Modified, Is.EqualTo(before.Modified));
        Assert.That(after.Mode & 0x1FF, Is.EqualTo(0x100u)); // 0400
    }

    [Test]
    public void Of_AMissingFile_IsFileNotFoundNamingIt()
    {
        var path = _dir["missing.bin"];
        Assert.That(() => FileStatus.Of(path), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("missing.bin"));
    }

    [Test]
    public unsafe void LibcStat_WrittenBackAndReadAgain_IsTheSameStatus()
    {
        Assume.That(OperatingSystem.IsLinux() && FileStatus.HasLibcLayout, "the libc layout is known on Linux x86_64 and arm64");
        var path = _dir.Write("a.bin", TestData.Random(3, 777));
        var raw = new byte[FileStatus.LibcStatSize];
        fixed (byte* buffer = raw)
            Assert.That(LibC.Stat(path, buffer), Is.Zero);
        var status = FileStatus.FromLibcStat(raw);
        Assert.That(status, Is.EqualTo(FileStatus.Of(path)));

        var written = new byte[FileStatus.LibcStatSize];
        status.WriteLibcStat(written);
        Assert.That(FileStatus.FromLibcStat(written), Is.EqualTo(status));
    }

    [Test]
    public void UnixTime_FromADateTime_GivesItBack_BeforeAndAfter1970()
    {
        foreach (var utc in new[] { new DateTime(1969, 12, 31, 23, 59, 59, 999, DateTimeKind.Utc).AddTicks(3), new DateTime(2026, 11, 23, 0, 0, 0, DateTimeKind.Utc).AddTicks(1234567) })
        {
            var time = UnixTime.From(utc);
            Assert.That(time.Nanoseconds, Is.InRange(0, 999_999_999));
            Assert.That(time.ToDateTime(), Is.EqualTo(utc));
        }
    }
}
