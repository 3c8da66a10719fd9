using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// <see cref="DecodedEntries"/> with the CRILAYLA codec (the one a CPK entry stored compressed gives): the decoded copy is
/// the content, readable by its owner only, in the cache folder or in a private file that has no name.
/// </summary>
public sealed class DecodedEntriesTests
{
    private TempDirectory _dir = null!;
    private byte[] _content = null!;
    private ArchiveSource _stored = null!;

    [SetUp]
    public void CreateStream()
    {
        _dir = new TempDirectory("decoded-entries");
        _content = [.. TestData.Random(30, 0x300), .. DotNetArchiveWriters.Repeat(TestData.Random(31, 700), 20)];
        var stream = CrilaylaReferenceEncoder.Encode(_content);
        var path = _dir.Write("outer.bin", [.. TestData.Random(32, 100), .. stream, .. TestData.Random(33, 9)]);
        _stored = new ArchiveSource(path, 100, stream.Length, FileIdentity.Of(path));
    }

    [TearDown]
    public void Delete() => _dir.Dispose();

    [Test]
    public void InTheCacheFolder_TheCopyIsTheContent_OwnerOnly_AndFoundAgainByAnotherInstance()
    {
        var encoding = new StoredEncoding(Crilayla.Instance, _content.Length);
        var first = new DecodedEntries(_dir["cache"]).Open(_stored, encoding);
        var second = new DecodedEntries(_dir["cache"]).Open(_stored, encoding);
        Assert.That(File.ReadAllBytes(first.Path), Is.EqualTo(_content));
        Assert.That(second, Is.EqualTo(first));
        Assert.That(Path.GetDirectoryName(first.Path), Is.EqualTo(Path.Combine(_dir["cache"], DecodedEntries.FolderName)));
        if (!OperatingSystem.IsWindows())
            Assert.That(File.GetUnixFileMode(first.Path), Is.EqualTo(UnixFileMode.UserRead | UnixFileMode.UserWrite));
    }

    [Test]
    public void WithoutACache_TheCopyHasNoName_AndIsReadableByItsOwnerOnly()
    {
        LinuxOnly.Require("an unlinked file named through /proc/self/fd");
        var decoded = new DecodedEntries(null).Open(_stored, new StoredEncoding(Crilayla.Instance, _content.Length));
        Assert.That(decoded.Path, Does.StartWith("/proc/self/fd/"));
        Assert.That(File.ReadAllBytes(decoded.Path), Is.EqualTo(_content));
        var target = new FileInfo(decoded.Path).LinkTarget;
        Assert.That(target, Does.EndWith("(deleted)"));
        if (!OperatingSystem.IsWindows())
            Assert.That(File.GetUnixFileMode(decoded.Path), Is.EqualTo(UnixFileMode.UserRead | UnixFileMode.UserWrite));
    }

    [Test]
    public void AContentSizeTheStreamDoesNotGive_IsOneErrorNamingTheFile()
    {
        Assert.That(() => new DecodedEntries(_dir["cache"]).Open(_stored, new StoredEncoding(Crilayla.Instance, _content.Length + 1)),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(_stored.Path).And.Message.Contains("archive records"));
        Assert.That(Directory.GetFiles(Path.Combine(_dir["cache"], DecodedEntries.FolderName)), Is.Empty, "no half-decoded file left");
    }
}
