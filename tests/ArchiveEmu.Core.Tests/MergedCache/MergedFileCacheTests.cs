using System.Buffers.Binary;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>The merged file cache serves exactly the emulated bytes, or nothing: stale, damaged and truncated cases included.</summary>
public sealed class MergedFileCacheTests
{
    private static readonly string[] Archives = CacheTestGame.Archives;
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame();

    [TearDown]
    public void DeleteGame() => _game?.Dispose(); // null when SetUp was skipped (Windows: no python3)

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void Merged_EveryFormat_ServesTheEmulatedBytes(ChunkCompression compression)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, compression);
        foreach (var archive in Archives)
        {
            var game = _game.Game(cache);
            var entry = cache.Find(game.KeyOf(game.Plan.FindArchive(archive)!));
            Assert.That(entry?.Merged, Is.Not.Null, archive);
            Assert.That(entry!.Merged!.Compression, Is.EqualTo(compression == ChunkCompression.Lz4 ? "lz4" : "none"));
            using var file = game.OpenFile(archive);
            Assert.That(file.Segments[0].Source.Describe(), Does.StartWith("merged cache"), "served from the pack");
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(archive)), archive);
            AssertRandomReadsMatch(file, _game.Emulated(archive), seed: archive.Length);
        }
        Assert.That(_game.Warnings, Is.Empty);
    }

    [TestCaseSource(nameof(Archives))]
    public void Layout_StoredWithoutMerging_RebuildsTheArchiveWithoutParsingIt(string relative)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: false);
        var game = _game.Game(cache);
        using var archive = game.OpenArchive(relative);
        Assert.That(archive.Original, Is.InstanceOf<CachedArchiveIndex>(), "restored from the layout, not parsed");
        var emulated = _game.Emulated(relative);
        Assert.That(CacheTestGame.ReadAll(archive.File), Is.EqualTo(emulated));
        Assert.That(emulated, Is.Not.EqualTo(File.ReadAllBytes(_game["game/" + relative])), "the mods change every archive");
        using var built = game.Build(game.Plan.FindArchive(relative)!);
        Assert.That(archive.Entries, Is.EqualTo(built.Entries.Select(e => e with { Input = null })));
        Assert.That(_game.Warnings, Is.Empty);
    }

    private static readonly (string Name, Action<CacheTestGame> Change)[] Changes =
    [
        ("original mtime", g => File.SetLastWriteTimeUtc(g["game/data/tex.afs"], DateTime.UtcNow.AddMinutes(5))),
        ("original size", g => File.AppendAllText(g["game/data/tex.afs"], "")), // replaced below by a real size change
        ("input size", g => File.WriteAllBytes(g["mods/a/data/tex.afs/7_face.dds"], TestData.Random(9, 5_001))),
        ("input mtime", g => File.SetLastWriteTimeUtc(g["mods/b/data/tex.afs/30.dds"], DateTime.UtcNow.AddMinutes(5))),
        ("mod order", g => g.Mods = ["b", "a"]),
        ("mod removed", g => g.Mods = ["a"]),
        ("mod added", g => { Directory.CreateDirectory(g["mods/c/data/tex.afs"]); File.WriteAllBytes(g["mods/c/data/tex.afs/2.dds"], [1, 2, 3]); g.Mods = ["a", "b", "c"]; }),
        ("input deleted by a .del", g => File.WriteAllBytes(g["mods/b/data/tex.afs/5.del"], [])),
    ];

    [TestCaseSource(nameof(ChangeNames))]
    public void AnyChange_IsAMiss_AndServesTheNewBytes(string name)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        var change = Changes.Single(c => c.Name == name).Change;
        if (name == "original size")
            change = g => File.WriteAllBytes(g["game/data/tex.afs"], AfsTestWriter.Write([TestData.Random(50, 4000), TestData.Random(51, 100)]));
        change(_game);

        var game = _game.Game(cache);
        Assert.That(cache.Find(game.KeyOf(game.Plan.FindArchive("data/tex.afs")!)), Is.Null, name);
        using var file = game.OpenFile("data/tex.afs");
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
    }

    private static IEnumerable<string> ChangeNames() => Changes.Select(c => c.Name);

    // Issue 17: size and mtime alone cannot see this change; the ctime in the key does, with or without --verify-content.
    [Test]
    public void ContentChange_WithSameSizeAndMtime_IsAMiss_WithOrWithoutVerifyContent()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, verifyContent: true);
        _game.BuildAll(cache, merge: true, verifyContent: false);
        var before = _game.Emulated("data/tex.afs");
        var path = _game["mods/a/data/tex.afs/7_face.dds"];
        var mtime = File.GetLastWriteTimeUtc(path);
        var bytes = File.ReadAllBytes(path);
        bytes[100] ^= 0xFF;
        File.WriteAllBytes(path, bytes);
        File.SetLastWriteTimeUtc(path, mtime);
        Assert.That(new FileInfo(path).Length, Is.EqualTo(bytes.Length));
        Assert.That(File.GetLastWriteTimeUtc(path), Is.EqualTo(mtime), "same size and mtime");

        var verifying = _game.Game(cache, verifyContent: true);
        Assert.That(cache.Find(verifying.KeyOf(verifying.Plan.FindArchive("data/tex.afs")!)), Is.Null, "content hash differs");
        var plain = _game.Game(cache);
        Assert.That(cache.Find(plain.KeyOf(plain.Plan.FindArchive("data/tex.afs")!)), Is.Null, "the ctime differs");
        using var file = plain.OpenFile("data/tex.afs");
        var served = CacheTestGame.ReadAll(file);
        Assert.That(served, Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(served, Is.Not.EqualTo(before), "the new bytes, not the cached ones");
    }

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void Merged_ChunkAlignedReadsOnAFreshFile_MatchEmulation(ChunkCompression compression)
    {
        const int chunk = 16 * 1024;
        var cache = _game.Cache(chunk);
        _game.BuildAll(cache, merge: true, compression);
        var expected = _game.Emulated("data/tex.afs");
        using var file = _game.Game(cache).OpenFile("data/tex.afs");
        var random = new Random(11);
        var buffer = new byte[6 * chunk + 100];
        for (int i = 0; i < 200; i++) // reads covering whole chunks (one read per run of chunks), mixed with partial ones
        {
            long offset = random.Next(0, (int)(file.Length / chunk) + 1) * (long)chunk + (i % 3 == 0 ? random.Next(1, chunk) : 0);
            int length = random.Next(0, 6) * chunk + (i % 4 == 0 ? random.Next(1, 100) : 0);
            Array.Fill(buffer, (byte)0xCD);
            int read = file.Read(offset, buffer.AsSpan(0, length));
            int want = (int)Math.Clamp(expected.Length - offset, 0, length);
            Assert.That(read, Is.EqualTo(want));
            Assert.That(buffer.AsSpan(0, read).SequenceEqual(expected.AsSpan((int)Math.Min(offset, expected.Length), want)), Is.True, $"read at {offset}+{length}");
            Assert.That(buffer.AsSpan(length).IndexOfAnyExcept((byte)0xCD), Is.EqualTo(-1), "nothing written past the read");
        }
        Assert.That(_game.Warnings, Is.Empty);
    }

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void FlippedByteInPack_ServesTheRightBytesAndWarns(ChunkCompression compression)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, compression);
        var entry = cache.ReadIndex().Entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var pack = Path.Combine(_game.CacheFolder, "packs", entry.Merged!.Chunks.Pack);
        CacheTestGame.FlipByte(pack, entry.Merged.Chunks.Offset + entry.Merged.Chunks.Length / 2);

        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Has.Some.Contains("fails its hash check").Or.Some.Contains("does not decode"));
        Assert.That(cache.ReadIndex().Entries.Any(e => e.Key == entry.Key), Is.False, "the damaged entry is dropped");
    }

    // What an open file promises: a raw chunk it has already checked, or that was trusted at open (a verified extent of an
    // unchanged pack: VerifiedExtentsTests), is read straight from the pack afterwards, so a byte flipped after that
    // reaches that file; an LZ4 chunk is checked at every decode and its checked bytes are kept (DecodedChunkStore, by a
    // background thread) for the pack as that file opened it, so that file is served the bytes it checked, or, when the
    // chunk was not kept yet, finds the damage and is served by emulation; every new open (of the pack as it is now) checks again.
    // The codec by name: ChunkCodec is internal, and a public test method cannot take it.
    [TestCase(nameof(ChunkCodec.Raw), true)]
    [TestCase(nameof(ChunkCodec.Lz4), false)]
    public void FlippedByteAfterTheFirstRead_ServedOnlyFromARawChunkThatOpenFileHadChecked(string codecName, bool servedToTheOpenFile)
    {
        var codec = Enum.Parse<ChunkCodec>(codecName);
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.Lz4); // random entries stay raw, padding and headers shrink
        var entry = cache.ReadIndex().Entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var table = cache.ReadChunkTable(entry.Merged!);
        int chunk = Array.IndexOf(table.Codecs, codec);
        Assert.That(chunk, Is.GreaterThanOrEqualTo(0), $"the archive has a {codec} chunk");
        var expected = _game.Emulated("data/tex.afs");

        using var open = _game.Game(cache).OpenFile("data/tex.afs");
        Assert.That(CacheTestGame.ReadAll(open), Is.EqualTo(expected), "first read: trusted, written in this boot");
        CacheTestGame.FlipByte(cache.PathOf(entry.Merged!.Chunks), entry.Merged.Chunks.Offset + table.StoredOffsets[chunk] + table.StoredLengths[chunk] / 2);

        var again = CacheTestGame.ReadAll(open);
        if (servedToTheOpenFile)
        {
            long at = (long)chunk * table.ChunkSize + table.StoredLengths[chunk] / 2; // raw: stored bytes are the archive's
            Assert.That(again[at], Is.EqualTo((byte)(expected[at] ^ 0x5A)), "the flipped byte itself");
            again[at] = expected[at];
            Assert.That(again, Is.EqualTo(expected), "and nothing else");
            Assert.That(_game.Warnings, Is.Empty);
        }
        else
            Assert.That(again, Is.EqualTo(expected), "kept bytes checked at the first read, or re-checked and served by emulation");

        using var reopened = _game.Game(cache).OpenFile("data/tex.afs");
        Assert.That(CacheTestGame.ReadAll(reopened), Is.EqualTo(expected), "a new open checks every chunk again");
        Assert.That(_game.Warnings, Has.Some.Contains("fails its hash check").Or.Some.Contains("does not decode"));
    }

    [Test]
    public void AnIndexAnotherVersionWrote_IsAnEmptyCache_SaidAsSuch_NotAsDamage_AndTheNextBuildRecovers()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        var index = Path.Combine(_game.CacheFolder, "index.bin");
        var bytes = File.ReadAllBytes(index);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), CacheFormat.Version - 1); // the version field, outside the checksum
        File.WriteAllBytes(index, bytes);

        Assert.That(cache.ReadIndex().Entries, Is.Empty);
        Assert.That(_game.Warnings, Has.Some.Contains($"written by another ArchiveEmu version (cache format {CacheFormat.Version - 1}; this one uses {CacheFormat.Version}); the cache starts afresh"));
        Assert.That(_game.Warnings, Has.None.Contains("damaged"));
        _game.BuildAll(cache, merge: true);
        Assert.That(cache.ReadIndex().Entries, Has.Count.EqualTo(Archives.Length));
        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
    }

    [Test]
    public void TruncatedIndex_IsAnEmptyCacheWithAWarning_AndTheNextBuildRecovers()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        var index = Path.Combine(_game.CacheFolder, "index.bin");
        File.WriteAllBytes(index, File.ReadAllBytes(index)[..^7]);

        Assert.That(cache.ReadIndex().Entries, Is.Empty);
        Assert.That(_game.Warnings, Has.Some.Contains("index is damaged"));
        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
        _game.BuildAll(cache, merge: true);
        Assert.That(cache.ReadIndex().Entries, Has.Count.EqualTo(Archives.Length));
        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
    }

    [Test]
    public void TruncatedPack_FallsBackToEmulation()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var entry = cache.ReadIndex().Entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal));
        var pack = Path.Combine(_game.CacheFolder, "packs", entry.Merged!.Chunks.Pack);
        using (var stream = new FileStream(pack, FileMode.Open))
            stream.SetLength(entry.Merged.Chunks.Offset + entry.Merged.Chunks.Length / 3);

        using (var file = _game.Game(cache).OpenFile("data/tex.afs"))
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated("data/tex.afs")));
        Assert.That(_game.Warnings, Is.Not.Empty);
    }

    [Test]
    public void VerifyAndGc_DropDamagedAndExpiredEntries_AndCompactPacks()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        _game.BuildAll(cache, merge: true); // a hit: nothing new written
        Assert.That(cache.Verify().All(r => r.Ok), Is.True);
        File.SetLastWriteTimeUtc(_game["mods/a/data/tex.afs/7_face.dds"], DateTime.UtcNow.AddMinutes(1));
        _game.BuildAll(cache, merge: true); // tex.afs rebuilt: its old extent is dead space now
        long before = cache.PackBytes();

        var gc = cache.Collect(TimeSpan.FromDays(14));
        Assert.That(gc.Kept, Is.EqualTo(Archives.Length));
        Assert.That(cache.PackBytes(), Is.LessThan(before));
        foreach (var archive in Archives)
        {
            using var file = _game.Game(cache).OpenFile(archive);
            Assert.That(file.Segments[0].Source.Describe(), Does.StartWith("merged cache"));
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(archive)));
        }

        foreach (var unused in cache.ReadIndex().Entries.Where(e => !e.Route.EndsWith("tex.afs", StringComparison.Ordinal)))
            File.SetLastWriteTimeUtc(Path.Combine(_game.CacheFolder, "used", unused.Key), DateTime.UtcNow.AddDays(-20));
        Assert.That(cache.Collect(TimeSpan.FromDays(14)).Expired, Is.EqualTo(Archives.Length - 1));
        Assert.That(cache.ReadIndex().Entries.Select(e => e.Route), Has.All.EndsWith("tex.afs"));

        var afs = cache.ReadIndex().Entries.Single();
        CacheTestGame.FlipByte(Path.Combine(_game.CacheFolder, "packs", afs.Layout.Pack), afs.Layout.Offset + 3);
        Assert.That(cache.Verify().Single().Ok, Is.False);
        Assert.That(cache.ReadIndex().Entries, Is.Empty);
    }

    [Test]
    public void CacheFilesAndFolders_AreTheOwnersOnly_WhateverTheUmask()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Ignore("Unix modes only");
            return; // the platform analyzer does not know Ignore throws
        }
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        using (var file = _game.Game(cache).OpenFile("data/tex.afs")) // a read: writes the use marker
            Assert.That(file.Length, Is.GreaterThan(0));
        var everything = Directory.EnumerateFileSystemEntries(_game.CacheFolder, "*", SearchOption.AllDirectories).Append(_game.CacheFolder).ToArray();
        Assert.That(everything.Select(Path.GetFileName), Does.Contain("index.bin").And.Contain("lock").And.Contain("packs").And.Contain("used"));
        const UnixFileMode others = UnixFileMode.GroupRead | UnixFileMode.GroupWrite | UnixFileMode.GroupExecute
                                    | UnixFileMode.OtherRead | UnixFileMode.OtherWrite | UnixFileMode.OtherExecute;
        foreach (var path in everything)
            Assert.That(File.GetUnixFileMode(path) & others, Is.EqualTo((UnixFileMode)0), path);
    }

    [Test]
    public void SecondWriter_WaitsForTheFirst_AndFindsItsEntry()
    {
        var cache = _game.Cache();
        using (var held = new FileStream(Path.Combine(Directory.CreateDirectory(_game.CacheFolder).FullName, "lock"),
                   FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None))
        {
            var impatient = new MergedFileCache(_game.CacheFolder, new CacheOptions(LockTimeout: TimeSpan.FromMilliseconds(200)));
            var game = _game.Game(impatient);
            var route = game.Plan.FindArchive("data/tex.afs")!;
            using var archive = game.Build(route);
            Assert.That(() => impatient.Store(game.KeyOf(route), archive, true, ChunkCompression.Lz4),
                Throws.InstanceOf<IOException>().With.Message.Contains("another archiveemu process"));
        }
        _game.BuildAll(cache, merge: true);
        Assert.That(cache.ReadIndex().Entries, Has.Count.EqualTo(Archives.Length));
    }

    private static void AssertRandomReadsMatch(VirtualFile file, byte[] expected, int seed)
    {
        var random = new Random(seed);
        var buffer = new byte[70_000];
        for (int i = 0; i < 300; i++)
        {
            long offset = random.NextInt64(0, file.Length + 10);
            int length = random.Next(0, buffer.Length);
            int read = file.Read(offset, buffer.AsSpan(0, length));
            int want = (int)Math.Clamp(expected.Length - offset, 0, length);
            Assert.That(read, Is.EqualTo(want));
            Assert.That(buffer.AsSpan(0, read).SequenceEqual(expected.AsSpan((int)Math.Min(offset, expected.Length), want)), Is.True, $"read at {offset}+{length}");
        }
    }
}
