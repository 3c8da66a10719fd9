using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.MergedCache;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>
/// Issue 48, "A full disk is no error for the game": with the cache on a full file system, an archive chosen for packing
/// failed (EIO through the mount, "No space left on device" from build). Now it is served by emulation, the same bytes,
/// with one warning for the whole cache naming its file system; the pack keeps no half-written blob; with room made, the
/// next serve packs it.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class FullCacheDiskTests
{
    private CacheTestGame _game = null!;
    private FullFolder _full = null!;

    [SetUp]
    public void CreateGame()
    {
        _game = new CacheTestGame();
        _full = FullFolder.Create();
    }

    [TearDown]
    public void DeleteGame()
    {
        _game.Dispose();
        _full?.Dispose();
    }

    [Test]
    public void AnArchiveToPack_OnAFullCacheDisk_IsServedByEmulation_WithOneWarningForTheCache()
    {
        var warnings = new List<string>();
        var cache = new MergedFileCache(Path.Combine(_full.Folder, "cache"), new CacheOptions(16 * 1024, TimeSpan.FromSeconds(30), warnings.Add));
        var game = _game.Game(cache);
        var request = new ServeRequest { Merge = MergePolicy.Always, OpenFile = true, Describe = true };

        var served = game.Plan.Archives.Select(a => game.Serve(a, request)).ToList();

        foreach (var s in served)
        {
            using var file = s.File!;
            Assert.That((s.How, s.Cache), Is.EqualTo((ServedAs.Emulated, CacheOutcome.Full)), s.Route.RelativePath);
            Assert.That(s.Reason, Is.EqualTo("emulated, parsed (the cache's disk is full; not packed)"));
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(s.Route.RelativePath)));
        }
        Assert.That(served, Has.Count.GreaterThan(1), "the game has more than one archive, and the warning is still one");
        Assert.That(warnings, Has.Count.EqualTo(1));
        Assert.That(warnings[0], Does.StartWith($"{cache.Folder}: the cache's file system (tmpfs, 0 B free) is full; {served[0].Route.RelativePath} and any other archive"));
        Assert.That(cache.Entries(), Is.Empty);
        var packs = Path.Combine(cache.Folder, "packs");
        Assert.That(Directory.Exists(packs) ? Directory.GetFiles(packs).Select(f => new FileInfo(f).Length).Sum() : 0, Is.LessThanOrEqualTo(CacheFormat.PackHeaderSize),
            "no half-written blob is left in a pack");
        Assert.That(Directory.GetFiles(cache.Folder).Where(f => f.EndsWith(".tmp")), Is.Empty);

        _full.MakeRoom();
        var packed = game.Serve(game.Plan.Archives[0], request);
        using var packedFile = packed.File!;
        Assert.That((packed.How, packed.Cache), Is.EqualTo((ServedAs.Merged, CacheOutcome.Stored)));
        Assert.That(CacheTestGame.ReadAll(packedFile), Is.EqualTo(_game.Emulated(packed.Route.RelativePath)));
    }
}
