using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The large indexes kept between reads (a P5R CPK's TOC is read by the CRI hook's folders, by FEmulator routes and by the
/// build): the same bytes give the same index, and a file changed since gives one read afresh. The kept set is process-wide,
/// so these tests do not run beside one another.
/// </summary>
[NonParallelizable]
public sealed class RecentIndexesTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        _dir = new TempDirectory("recent-indexes");
        RecentIndexes.Clear();
    }

    [TearDown]
    public void DeleteFolder()
    {
        RecentIndexes.Clear();
        _dir.Dispose();
    }

    private static byte[] Cpk(int entries, string content) => CpkTestWriter.WriteNamed(Enumerable.Range(0, entries)
        .Select(i => new CpkTestWriter.NamedEntry("D", $"F{i:D5}.BIN", System.Text.Encoding.ASCII.GetBytes(content))).ToList(), new CpkTestWriter.Options(Alignment: 1));

    [Test]
    public void ALargeIndex_ReadTwice_IsTheSameIndex()
    {
        var path = _dir.Write("big.cpk", Cpk(RecentIndexes.MinEntries, "a"));
        var first = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        var second = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        Assert.That(second, Is.SameAs(first));
    }

    [Test]
    public void ASmallIndex_IsReadAgain()
    {
        var path = _dir.Write("small.cpk", Cpk(3, "a"));
        var first = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        Assert.That(RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path)), Is.Not.SameAs(first));
    }

    [Test]
    public void AFileChangedSince_IsReadAfresh_WithItsNewEntries()
    {
        var path = _dir.Write("big.cpk", Cpk(RecentIndexes.MinEntries, "a"));
        var before = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        File.WriteAllBytes(path, Cpk(RecentIndexes.MinEntries, "bb")); // same entries, each a byte longer: a new size, mtime and ctime
        var after = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        Assert.That(after, Is.Not.SameAs(before));
        Assert.That(after.Entries[^1].Size, Is.EqualTo(2));
        Assert.That(after.Identity, Is.EqualTo(ArchiveSource.File(path).Identity));
    }

    [Test]
    public void OnlyTheMostRecentlyUsed_AreKept()
    {
        var paths = Enumerable.Range(0, RecentIndexes.Capacity + 1).Select(i => _dir.Write($"big{i}.cpk", Cpk(RecentIndexes.MinEntries, "a"))).ToArray();
        var first = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(paths[0]));
        foreach (var path in paths.Skip(1))
            RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(path));
        var newest = RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(paths[^1]));
        Assert.That(RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(paths[0])), Is.Not.SameAs(first), "the oldest was let go");
        Assert.That(RecentIndexes.Read(CpkFormat.Instance, ArchiveSource.File(paths[^1])), Is.SameAs(newest), "the newest is kept");
    }
}
