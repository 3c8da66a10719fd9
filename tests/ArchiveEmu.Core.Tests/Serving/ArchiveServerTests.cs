using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.MergedCache;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>The one serving decision: what it reads, what it stores, what it hands out, and that the bytes are always the emulated ones.</summary>
public sealed class ArchiveServerTests
{
    private const string Afs = "data/tex.afs";
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame();

    [TearDown]
    public void DeleteGame() => _game.Dispose();

    private ServedArchive Serve(MergedFileCache? cache, ServeRequest request, string archive = Afs)
    {
        var game = _game.Game(cache);
        return game.Serve(game.Plan.FindArchive(archive)!, request);
    }

    [Test]
    public void Serve_WithoutCache_ParsesAndEmulates()
    {
        var served = Serve(null, new ServeRequest { Merge = MergePolicy.Always, OpenFile = true, Describe = true });
        using var file = served.File!;
        Assert.That(served.How, Is.EqualTo(ServedAs.Emulated));
        Assert.That(served.Layout, Is.EqualTo(LayoutOrigin.Parsed));
        Assert.That(served.Cache, Is.EqualTo(CacheOutcome.Off));
        Assert.That(served.Reason, Is.EqualTo("emulated, parsed (no cache)"));
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Afs)));
        Assert.That(served.Summary!.Size, Is.EqualTo(file.Length));
    }

    [Test]
    public void Serve_NeverMerge_StoresTheLayoutOnceThenRebuildsFromIt()
    {
        var cache = _game.Cache();
        var request = new ServeRequest { Merge = MergePolicy.Never, OpenFile = true, Describe = true };

        var first = Serve(cache, request);
        using (first.File)
        {
            Assert.That((first.Layout, first.Cache, first.How), Is.EqualTo((LayoutOrigin.Parsed, CacheOutcome.Stored, ServedAs.Emulated)));
            Assert.That(first.Merged, Is.Null);
        }
        var second = Serve(cache, request);
        using var file = second.File!;
        Assert.That((second.Layout, second.Cache, second.How), Is.EqualTo((LayoutOrigin.Cache, CacheOutcome.Hit, ServedAs.Emulated)));
        Assert.That(second.Decision!.Reason, Does.StartWith("emulate: merge policy never"));
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Afs)));
        Assert.That(second.Summary, Is.EqualTo(first.Summary));
    }

    [TestCase(ChunkCompression.None, "none")]
    [TestCase(ChunkCompression.Lz4, "lz4")]
    public void Serve_AlwaysMerge_PacksWithTheAskedCompressionThenServesTheMergedCopy(ChunkCompression compression, string stored)
    {
        var cache = _game.Cache();
        var packed = Serve(cache, new ServeRequest { Merge = MergePolicy.Always, Compression = compression, OpenFile = true, Describe = true });
        using (packed.File)
        {
            Assert.That((packed.How, packed.Cache), Is.EqualTo((ServedAs.Merged, CacheOutcome.Stored)));
            Assert.That(packed.Reason, Does.StartWith("merged, packed now (merge: merge policy always"));
            Assert.That(packed.Merged!.Compression, Is.EqualTo(stored));
            Assert.That(packed.File!.Segments[0].Source.Describe(), Does.StartWith("merged cache"));
        }

        // A reader that only reads: the merged copy, without opening the layout or parsing the original.
        var read = Serve(cache, new ServeRequest { OpenFile = true });
        using var file = read.File!;
        Assert.That((read.How, read.Layout, read.Cache, read.Reason), Is.EqualTo((ServedAs.Merged, LayoutOrigin.None, CacheOutcome.Hit, "merged, from cache")));
        Assert.That(read.Summary, Is.Null);
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Afs)));
    }

    [Test]
    public void Serve_ReadOnlyRequest_WritesNothingToTheCache()
    {
        var cache = _game.Cache();
        var served = Serve(cache, new ServeRequest { OpenFile = true, Describe = true });
        served.File!.Dispose();
        Assert.That((served.Cache, served.Layout, served.Decision), Is.EqualTo((CacheOutcome.Miss, LayoutOrigin.Parsed, (MergeDecision?)null)));
        Assert.That(cache.ReadIndex().Entries, Is.Empty);
        Assert.That(Directory.Exists(_game.CacheFolder) ? Directory.GetFiles(_game.CacheFolder, "*", SearchOption.AllDirectories) : [], Is.Empty);
    }

    [Test]
    public void Serve_AutoMerge_FollowsTheThresholds()
    {
        var cache = _game.Cache();
        var tight = new MergeThresholds(MaxArchiveBytes: 1000);
        var refused = Serve(cache, new ServeRequest { Merge = MergePolicy.Auto, Thresholds = tight, Describe = true });
        Assert.That(refused.Decision!.Merge, Is.False);
        Assert.That((refused.How, refused.Merged), Is.EqualTo((ServedAs.Emulated, (MergedExtent?)null)));

        var taken = Serve(cache, new ServeRequest { Merge = MergePolicy.Auto, Describe = true });
        Assert.That(taken.Decision!.Merge, Is.True, taken.Decision.Reason);
        Assert.That((taken.How, taken.Layout, taken.Cache), Is.EqualTo((ServedAs.Merged, LayoutOrigin.Cache, CacheOutcome.Stored)),
            "the layout stored by the first call is reused; only the merged bytes are written");
    }

    [Test]
    public void Serve_DamagedMergedChunkTable_FallsBackToEmulationWithAWarning()
    {
        var cache = _game.Cache();
        Serve(cache, new ServeRequest { Merge = MergePolicy.Always });
        var entry = cache.ReadIndex().Entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var table = entry.Merged!.Table;
        using (var pack = File.OpenWrite(cache.PathOf(table)))
        {
            pack.Position = table.Offset + table.Length / 2;
            pack.WriteByte(0xA5); // flips the table's bytes, so its hash no longer matches
        }

        var served = Serve(cache, new ServeRequest { OpenFile = true });
        using var file = served.File!;
        Assert.That((served.How, served.Reason), Is.EqualTo((ServedAs.Emulated, "emulated (merged entry damaged)")));
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Afs)));
        Assert.That(_game.Warnings, Has.Some.Contains("damaged"));
    }

    [Test]
    public void Serve_KeptArchive_IsUsedAndLeftToItsOwner()
    {
        var game = _game.Game(_game.Cache());
        var route = game.Plan.FindArchive(Afs)!;
        using var kept = game.Build(route);
        var served = game.Serve(route, new ServeRequest { OpenFile = true, Kept = kept, Merge = MergePolicy.Never });
        Assert.That((served.Layout, served.Archive), Is.EqualTo((LayoutOrigin.Kept, (EmulatedArchive?)null)));
        served.File!.Dispose(); // the caller's file is its own: the kept archive still reads
        Assert.That(CacheTestGame.ReadAll(kept.File), Is.EqualTo(_game.Emulated(Afs)));
    }

    [Test]
    public void Serve_FileAndArchiveBoth_AreIndependentOfEachOther()
    {
        var served = Serve(_game.Cache(), new ServeRequest { OpenFile = true, KeepArchive = true });
        using var archive = served.Archive!;
        served.File!.Dispose();
        Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(_game.Emulated(Afs)));
    }

    // Until issue 17 this spoiled the original's table under its old size and mtime and saw the layout serve it; any
    // change now moves the ctime in the key. What tells the two paths apart instead: the emulator keeps an archive it
    // parsed (its files stay in the pool after the served file is disposed), never one rebuilt from a stored layout.
    [Test]
    public void ArchiveEmulatorOpen_WithAStoredLayout_DoesNotParseTheOriginal()
    {
        _game.BuildAll(_game.Cache(), merge: false);
        var expected = _game.Emulated(Afs);
        Assert.That(FilesHeldAfterOpen(_game.CacheFolder, expected), Is.Zero, "rebuilt from the stored layout, not kept");
        Assert.That(FilesHeldAfterOpen(null, expected), Is.GreaterThan(0), "without a cache: parsed, and kept");
    }

    private int FilesHeldAfterOpen(string? cacheFolder, byte[] expected)
    {
        var pool = new FileHandlePool(16);
        using var emulator = new ArchiveEmulator(_game.GameFolder, new ArchiveEmulatorOptions { CacheFolder = cacheFolder, Pool = pool });
        foreach (var mod in _game.Mods)
            emulator.AddModFolder(_game["mods/" + mod]);
        using (var file = emulator.Open(Afs))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(expected));
        return pool.FileCount;
    }
}
