using System.Buffers.Binary;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// One test per bug CacheFuzzTests found or its writing showed: an index or layout that passes its hash but does not fit its
/// entry is dropped with a warning, and emulation serves.
/// </summary>
public sealed class CacheParserRegressionTests
{
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame(entries: 8, entrySize: 5_000);

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    // Found by CacheFuzzTests (layout-resealed, zero-region: "0 bytes served, emulation gives 26669"): a layout whose hash
    // matches but which describes another length was served as it was. Here: another route's layout under this entry.
    [Test]
    public void ALayoutOfAnotherLength_IsDroppedWithAWarning_AndEmulationServes()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: false);
        var entries = cache.ReadIndex().Entries;
        var afs = entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var zip = entries.Single(e => e.Route.EndsWith("ui.zip", StringComparison.Ordinal));
        Rewrite(cache, entries.Select(e => e == afs ? afs with { Layout = zip.Layout } : e));

        using (var archive = _game.Game(cache).OpenArchive("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains("cache entry for").And.Some.Contains($"layout describes {zip.Length} bytes, the entry {afs.Length}"));
        Assert.That(cache.ReadIndex().Entries.Any(e => e.Key == afs.Key), Is.False, "dropped");
    }

    // The merged copy's own length is what the file is served at; one the entry disagrees with was served cut short.
    [Test]
    public void AMergedLengthTheEntryDisagreesWith_IsDroppedWithAWarning_AndEmulationServes()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var entries = cache.ReadIndex().Entries;
        var afs = entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        Assert.That(afs.Length % afs.Merged!.ChunkSize, Is.Not.EqualTo(1), "one byte less keeps the chunk count");
        Rewrite(cache, entries.Select(e => e == afs ? afs with { Merged = afs.Merged with { Length = afs.Length - 1 } } : e));

        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains($"merged copy of {afs.Length - 1} bytes for a {afs.Length}-byte archive"));
    }

    // Written by hand after reading ArchiveLayout: a file segment running past its file's recorded length parsed, and the
    // read then failed with an IOException naming the game's file (nothing wrong with it) instead of a drop.
    [Test]
    public void ALayoutReadingPastItsFilesRecordedLength_IsDroppedWithAWarning_AndEmulationServes()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: false);
        var entries = cache.ReadIndex().Entries;
        var afs = entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var pack = cache.PathOf(afs.Layout);
        var blob = Read(pack, afs.Layout.Offset, afs.Layout.Length);
        // The files table lists the original after the header does: its recorded length follows the last copy of its path.
        var path = System.Text.Encoding.UTF8.GetBytes(_game["game/data/tex.afs"]);
        int at = blob.AsSpan().LastIndexOf(path) + path.Length;
        long recorded = BinaryPrimitives.ReadInt64LittleEndian(blob.AsSpan(at));
        Assert.That(recorded, Is.EqualTo(new FileInfo(_game["game/data/tex.afs"]).Length), "found the files table's record of the original");
        BinaryPrimitives.WriteInt64LittleEndian(blob.AsSpan(at), recorded / 2); // the segments of its second half now run past it
        long offset = new FileInfo(pack).Length;
        File.AppendAllBytes(pack, blob);
        var layout = new CacheExtent(afs.Layout.Pack, offset, blob.Length, Convert.ToHexStringLower(System.IO.Hashing.XxHash3.Hash(blob)));
        Rewrite(cache, entries.Select(e => e == afs ? afs with { Layout = layout } : e));

        using (var archive = _game.Game(cache).OpenArchive("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains("layout does not parse (layout segment").And.Some.Contains("is malformed"));
    }

    private static byte[] Read(string path, long offset, long length)
    {
        using var stream = File.OpenRead(path);
        var bytes = new byte[length];
        stream.Position = offset;
        stream.ReadExactly(bytes);
        return bytes;
    }

    // Written by hand after reading ReadBlob (it turned a missing pack into a drop, but not a missing folder or a pack
    // name that is a folder): a pack name in the index is a plain *.pack name in packs/, anything else is damage.
    [TestCase("")]
    [TestCase("nope/00000001.pack")]
    [TestCase("../index.bin")]
    [TestCase("..")]
    public void APackNameThatIsNotAPackFile_IsDroppedWithAWarning_AndEmulationServes(string pack)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        var entries = cache.ReadIndex().Entries;
        var afs = entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var merged = afs.Merged!;
        Rewrite(cache, entries.Select(e => e == afs
            ? afs with { Layout = afs.Layout with { Pack = pack }, Merged = merged with { Chunks = merged.Chunks with { Pack = pack } } }
            : e));

        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
        using (var archive = _game.Game(cache).OpenArchive("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains("is not a pack name"));
    }

    // A well-formed index (checksum and all) holding the changed entries, as a writer with a bug would leave it.
    private void Rewrite(MergedFileCache cache, IEnumerable<CacheEntry> entries) =>
        File.WriteAllBytes(Path.Combine(cache.Folder, "index.bin"), new CacheIndex(entries).Serialize());
}
