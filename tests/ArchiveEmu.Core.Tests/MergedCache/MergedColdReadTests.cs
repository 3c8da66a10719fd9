using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Tests.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// A merged archive read as a stream while its pack is not cached goes the large-folio way (brought in by the reader
/// and a background thread ahead of it, see PageCacheReads): the bytes are still exactly the emulated ones, cold and
/// then warm, raw and LZ4. (Folio sizes are not asserted here: the kernel's own read-ahead already gives a pack read
/// in one stream large folios; the gain is the device kept busy, measured by `archiveemu bench --cold`.)
/// </summary>
public sealed class MergedColdReadTests
{
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame(entries: 96, entrySize: 100_000); // a ~9.6 MB AFS

    [TearDown]
    public void DeleteGame() => _game?.Dispose(); // null when SetUp was skipped (Windows: no python3)

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void AStreamingReadOfAnUncachedPack_ServesTheEmulatedBytes_ColdThenWarm(ChunkCompression compression)
    {
        const string archive = "data/tex.afs";
        var cache = _game.Cache(chunkSize: 64 * 1024);
        _game.BuildAll(cache, merge: true, compression);
        var expected = _game.Emulated(archive);
        var packs = Directory.GetFiles(_game.CacheFolder, "*", SearchOption.AllDirectories);
        foreach (var pack in packs)
            PageCacheProbe.Drop(pack);

        using var file = _game.Game(cache).OpenFile(archive);
        Assert.That(file.Segments[0].Source.Describe(), Does.StartWith("merged cache"));
        for (int pass = 0; pass < 2; pass++)
            Assert.That(LargeFolioReadTests.ReadThrough(file), Is.EqualTo(expected), pass == 0 ? "cold" : "warm");
        Assert.That(_game.Warnings, Is.Empty);
    }
}
