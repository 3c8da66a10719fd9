using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Index;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>The stored layout: restored to the same entries and bytes as the parse it was made from, and refused (dropped, then parsed) when it is of another version.</summary>
public sealed class ArchiveLayoutTests
{
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame(entries: 8, entrySize: 5_000);

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    [TestCaseSource(typeof(CacheTestGame), nameof(CacheTestGame.Archives))]
    public void Deserialize_OfWhatSerializeWrote_GivesTheParsedEntriesAndBytes(string relative)
    {
        var game = _game.Game();
        using var parsed = game.Build(game.Plan.FindArchive(relative)!);
        using var restored = ArchiveLayout.Deserialize(ArchiveLayout.Serialize(parsed), null);

        Assert.That(restored.Entries.Select(e => (e.Index, e.Name, e.Size, e.State, e.Origin)),
            Is.EqualTo(parsed.Entries.Select(e => (e.Index, e.Name, e.Size, e.State, e.Origin))));
        Assert.That(Enum.GetValues<EntryState>().Select(restored.Count), Is.EqualTo(Enum.GetValues<EntryState>().Select(parsed.Count)));
        Assert.That((restored.Original.Format, restored.Original.Path, restored.Original.Identity),
            Is.EqualTo((parsed.Original.Format, parsed.Original.Path, parsed.Original.Identity)));
        Assert.That(CacheTestGame.ReadAll(restored.File), Is.EqualTo(CacheTestGame.ReadAll(parsed.File)));
        Assert.That(restored.File.Segments.ToArray().Select(s => (s.VirtualOffset, s.Length, s.SourceOffset, s.Source.Describe())),
            Is.EqualTo(parsed.File.Segments.ToArray().Select(s => (s.VirtualOffset, s.Length, s.SourceOffset, s.Source.Describe()))));
    }

    // Version 4 (issue 20) changed every field's place: a blob written by an older build must be a clean drop, never read.
    [TestCase((byte)3)]
    [TestCase((byte)5)]
    public void ALayoutOfAnotherVersion_IsDroppedWithAWarning_AndEmulationServes(byte version)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: false);
        var entries = cache.ReadIndex().Entries;
        var afs = entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var pack = cache.PathOf(afs.Layout);
        var blob = new byte[afs.Layout.Length];
        using (var stream = File.OpenRead(pack))
        {
            stream.Position = afs.Layout.Offset;
            stream.ReadExactly(blob);
        }
        blob[0] = version;
        long offset = new FileInfo(pack).Length;
        File.AppendAllBytes(pack, blob);
        var layout = new CacheExtent(afs.Layout.Pack, offset, blob.Length, Convert.ToHexStringLower(System.IO.Hashing.XxHash3.Hash(blob)));
        File.WriteAllBytes(Path.Combine(cache.Folder, "index.bin"), new CacheIndex(entries.Select(e => e == afs ? afs with { Layout = layout } : e)).Serialize());

        using (var archive = _game.Game(cache).OpenArchive("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains($"layout does not parse (layout version {version}, this build reads 4)"));
        Assert.That(cache.ReadIndex().Entries.Any(e => e.Key == afs.Key), Is.False, "dropped");
    }
}
