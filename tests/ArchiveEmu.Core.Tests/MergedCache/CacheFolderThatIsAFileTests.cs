using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// Issue 48: a file given as the cache folder was taken for a folder yet to be made in its parent: the write check passed,
/// a mount started and served "from" it, <c>build</c> failed with .NET's "The file … already exists". Now the cache
/// refuses it at once, naming the file.
/// </summary>
public sealed class CacheFolderThatIsAFileTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFile()
    {
        _dir = new TempDirectory("cache-is-a-file");
        _dir.Write("cache.txt", "not a cache"u8.ToArray());
    }

    [TearDown]
    public void Delete() => _dir?.Dispose();

    [Test]
    public void AFileThere_OrAbove_IsNoFolder_ForTheWriteCheckToo()
    {
        string file = _dir["cache.txt"];
        Assert.That(CacheFolderAccess.WhyNoFolder(file), Is.EqualTo("is a file, not a folder"));
        Assert.That(CacheFolderAccess.WhyNoFolder(Path.Combine(file, "sub", "deeper")), Is.EqualTo($"cannot be made: {Path.GetFullPath(file)} is a file, not a folder"));
        Assert.That(CacheFolderAccess.WhyNotWritable(file), Is.EqualTo("is a file, not a folder"));
        Assert.That(CacheFolderAccess.WhyNoFolder(_dir["new/cache"]), Is.Null, "a folder yet to be made");
        Assert.That(CacheFolderAccess.WhyNoFolder(_dir.Path), Is.Null);
    }

    [Test]
    public void TheCache_RefusesIt_NamingTheFile_AndLeavesItAlone()
    {
        string file = _dir["cache.txt"];
        var e = Assert.Throws<IOException>(() => new MergedFileCache(file));
        Assert.That(e!.Message, Is.EqualTo($"{Path.GetFullPath(file)}: the cache folder is a file, not a folder; give the cache a folder of its own"));
        Assert.That(File.ReadAllText(file), Is.EqualTo("not a cache"));
    }
}
