using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// Issue 20: a merged extent hash-checked when written (or by verify) is read without hashes while its pack keeps the
/// identity and the boot it was checked in; anything else is checked chunk by chunk as before, and a damaged chunk is
/// never served. How many hashes an open made is read from its source's counter.
/// </summary>
public sealed class VerifiedExtentsTests
{
    private const string Tex = "data/tex.afs";
    private CacheTestGame _game = null!;
    private ReadOnlyBindMount? _readOnly;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame();

    [TearDown]
    public void DeleteGame()
    {
        _readOnly?.Dispose();
        _game?.Dispose();
    }

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void AfterABuild_AnOpenHashesNoRawChunk_AndServesTheBytes(ChunkCompression compression)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, compression);
        var table = cache.ReadChunkTable(Entry(cache, Tex).Merged!);

        using var file = _game.Game(cache).OpenFile(Tex);
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
        Assert.That(table.Codecs, compression == ChunkCompression.Lz4 ? Has.Some.EqualTo(ChunkCodec.Lz4) : Has.All.EqualTo(ChunkCodec.Raw));
        Assert.That(table.StoredAsIs, Is.EqualTo(compression == ChunkCompression.None),
            "stored as is: a small read of the trusted extent is one pread at the same offset, no chunk table touched");
        Assert.That(SourceOf(file).RawChunksHashChecked, Is.Zero,
            "raw chunks read unhashed (LZ4 chunks are hash-checked at their decode: Lz4DecodeAheadTests)");
        AssertSmallReadsMatch(file, _game.Emulated(Tex));
        Assert.That(_game.Warnings, Is.Empty);
    }

    [Test]
    public void WithoutARecord_AnOpenHashesEveryChunk()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        File.Delete(Path.Combine(_game.CacheFolder, VerifiedExtents.FileName));

        using var file = _game.Game(cache).OpenFile(Tex);
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
        Assert.That(SourceOf(file).RawChunksHashChecked, Is.EqualTo(cache.ReadChunkTable(Entry(cache, Tex).Merged!).Count));
    }

    [Test]
    public void InAnotherBoot_TheRecordTrustsNothing()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var afterARestart = new MergedFileCache(_game.CacheFolder, new CacheOptions(16 * 1024, Warn: _game.Warnings.Add)) { Boot = "another boot" };

        using (var file = _game.Game(afterARestart).OpenFile(Tex))
        {
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
            Assert.That(SourceOf(file).RawChunksHashChecked, Is.EqualTo(cache.ReadChunkTable(Entry(cache, Tex).Merged!).Count));
        }
        using (var file = _game.Game(cache).OpenFile(Tex))
        {
            CacheTestGame.ReadAll(file);
            Assert.That(SourceOf(file).RawChunksHashChecked, Is.Zero, "the boot it was recorded in still trusts it");
        }
    }

    // The codec by name: ChunkCodec is internal, and a public test method cannot take it.
    [TestCase(nameof(ChunkCodec.Raw))]
    [TestCase(nameof(ChunkCodec.Lz4))]
    public void FlippedByte_InATrustedExtent_IsNeverServed(string codec)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.Lz4); // random entries stay raw, padding and headers shrink
        long at = FlipByteInAChunk(cache, Enum.Parse<ChunkCodec>(codec));

        AssertServedRight(cache, at);
    }

    // The record of an extent survives another build's append only if the pack had, just before that append, the
    // identity the record names: here it did not (a byte was flipped in between), so the flip must still be found.
    [TestCase(nameof(ChunkCodec.Raw))]
    [TestCase(nameof(ChunkCodec.Lz4))]
    public void FlippedByte_ThenABuildAppendingToThePack_TrustIsNotCarriedForward(string codec)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.Lz4);
        long at = FlipByteInAChunk(cache, Enum.Parse<ChunkCodec>(codec));
        RebuildPackTar(cache);

        AssertServedRight(cache, at);
    }

    [Test]
    public void ABuildAppendingToThePack_KeepsTheEarlierExtentsTrusted()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        RebuildPackTar(cache);

        foreach (var archive in new[] { Tex, "data/pack.tar" })
        {
            using var file = _game.Game(cache).OpenFile(archive);
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(archive)), archive);
            Assert.That(SourceOf(file).RawChunksHashChecked, Is.Zero, archive);
        }
    }

    // Another file renamed over the pack, with the pack's size and mtime: its own inode and ctime make it a stranger.
    [Test]
    public void ForeignPackRenamedOverThePack_WithItsSizeAndMtime_IsNeverServed()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var merged = Entry(cache, Tex).Merged!;
        var pack = cache.PathOf(merged.Chunks);
        var foreign = File.ReadAllBytes(pack);
        for (long i = merged.Chunks.Offset; i < merged.Chunks.Offset + merged.Chunks.Length; i += 997)
            foreign[i] ^= 0x33;
        var mtime = File.GetLastWriteTimeUtc(pack);
        File.WriteAllBytes(pack + ".new", foreign);
        File.SetLastWriteTimeUtc(pack + ".new", mtime);
        File.Move(pack + ".new", pack, overwrite: true);

        AssertServedRight(cache, merged.Chunks.Length / 2);
    }

    [Test]
    public void TruncatedPack_IsRefusedAtOpen_AndServedByEmulation()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var merged = Entry(cache, Tex).Merged!;
        using (var stream = new FileStream(cache.PathOf(merged.Chunks), FileMode.Open))
            stream.SetLength(merged.Chunks.Offset + merged.Chunks.Length - 1);

        using var file = _game.Game(cache).OpenFile(Tex);
        Assert.That(file.Segments[0].Source.Describe(), Does.Not.StartWith("merged cache"), "the short pack is not opened as a merged copy");
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
        Assert.That(_game.Warnings, Has.Some.Contains("pack is shorter than its index says"));
    }

    [Test]
    public void Verify_RecordsWhatItRead_SoTheNextOpenHashesNothing()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var afterARestart = new MergedFileCache(_game.CacheFolder, new CacheOptions(16 * 1024, Warn: _game.Warnings.Add)) { Boot = "another boot" };
        using (var file = _game.Game(afterARestart).OpenFile(Tex))
        {
            CacheTestGame.ReadAll(file);
            Assert.That(SourceOf(file).RawChunksHashChecked, Is.Positive);
        }

        Assert.That(afterARestart.Verify().All(r => r.Ok), Is.True);

        using (var file = _game.Game(afterARestart).OpenFile(Tex))
        {
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
            Assert.That(SourceOf(file).RawChunksHashChecked, Is.Zero);
        }
        Assert.That(_game.Warnings, Is.Empty);
    }

    [Test]
    public void Gc_RecordsItsCopies_AndForgetsTheDeletedPacks()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var before = Entry(cache, Tex).Merged!.Chunks.Pack;

        Assert.That(cache.Collect(TimeSpan.FromDays(14)).Kept, Is.EqualTo(CacheTestGame.Archives.Length));

        Assert.That(Entry(cache, Tex).Merged!.Chunks.Pack, Is.Not.EqualTo(before));
        using var file = _game.Game(cache).OpenFile(Tex);
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
        Assert.That(SourceOf(file).RawChunksHashChecked, Is.Zero);
        Assert.That(File.ReadAllText(Path.Combine(_game.CacheFolder, VerifiedExtents.FileName)), Does.Not.Contain(before));
    }

    [TestCase(true)]
    [TestCase(false)]
    public void ReadOnlyCacheFolder_ServesTheRightBytes(bool recorded)
    {
        LinuxOnly.Require("a read-only bind mount");
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        if (!recorded)
            File.Delete(Path.Combine(_game.CacheFolder, VerifiedExtents.FileName));
        _readOnly = ReadOnlyBindMount.Over(_game.CacheFolder);

        using (var file = _game.Game(cache).OpenFile(Tex))
        {
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
            AssertSmallReadsMatch(file, _game.Emulated(Tex));
            Assert.That(SourceOf(file).RawChunksHashChecked, recorded ? Is.Zero : Is.Positive);
        }
        Assert.That(cache.Verify().All(r => r.Ok), Is.True, "verify reads a read-only cache too");
        Assert.That(_game.Warnings, recorded ? Is.Empty : Has.Some.Contains("could not record the extents verified"));
    }

    [Test]
    public void DamagedRecord_TrustsNothing()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        var record = Path.Combine(_game.CacheFolder, VerifiedExtents.FileName);
        var bytes = File.ReadAllBytes(record);
        bytes[^12] ^= 1;
        File.WriteAllBytes(record, bytes);

        using var file = _game.Game(cache).OpenFile(Tex);
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(Tex)));
        Assert.That(SourceOf(file).RawChunksHashChecked, Is.EqualTo(cache.ReadChunkTable(Entry(cache, Tex).Merged!).Count));
    }

    private static MergedSource SourceOf(VirtualFile file) => (MergedSource)file.Segments[0].Source;

    private static CacheEntry Entry(MergedFileCache cache, string archive) =>
        cache.ReadIndex().Entries.Single(e => e.Route.EndsWith(Path.GetFileName(archive), StringComparison.Ordinal));

    // A mod file of pack.tar changes, so the next build stores pack.tar again: appended to the pack tex.afs is in.
    private void RebuildPackTar(MergedFileCache cache)
    {
        var texPack = Entry(cache, Tex).Merged!.Chunks.Pack;
        File.SetLastWriteTimeUtc(_game["mods/a/data/pack.tar/m/04.bin"], DateTime.UtcNow.AddMinutes(1));
        _game.BuildAll(cache, merge: true, ChunkCompression.None);
        Assert.That(Entry(cache, "data/pack.tar").Merged!.Chunks.Pack, Is.EqualTo(texPack), "appended to the same pack");
    }

    /// <summary>Flips a byte in the middle of tex.afs's first chunk stored as <paramref name="codec"/>; returns the archive offset of that chunk's middle.</summary>
    private static long FlipByteInAChunk(MergedFileCache cache, ChunkCodec codec)
    {
        var merged = Entry(cache, Tex).Merged!;
        var table = cache.ReadChunkTable(merged);
        int chunk = Array.IndexOf(table.Codecs, codec);
        Assert.That(chunk, Is.GreaterThanOrEqualTo(0), $"the archive has a {codec} chunk");
        CacheTestGame.FlipByte(cache.PathOf(merged.Chunks), merged.Chunks.Offset + table.StoredOffsets[chunk] + table.StoredLengths[chunk] / 2);
        return (long)chunk * table.ChunkSize + table.StoredLengths[chunk] / 2;
    }

    // A fresh open: first a 4 KiB read around the damage (the read a trusted raw chunk would serve straight from the
    // pack), then the whole archive; both right, and the damage reported.
    private void AssertServedRight(MergedFileCache cache, long at)
    {
        var expected = _game.Emulated(Tex);
        using var file = _game.Game(cache).OpenFile(Tex);
        long start = Math.Max(0, at - 2048);
        var small = new byte[(int)Math.Min(4096, expected.Length - start)];
        file.ReadExactly(start, small);
        Assert.That(small, Is.EqualTo(expected.AsSpan((int)start, small.Length).ToArray()), "the 4 KiB around the damage");
        Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(expected));
        Assert.That(_game.Warnings, Has.Some.Contains("fails its hash check").Or.Some.Contains("does not decode"));
    }

    private static void AssertSmallReadsMatch(VirtualFile file, byte[] expected)
    {
        var random = new Random(20);
        var buffer = new byte[4096];
        for (int i = 0; i < 200; i++)
        {
            long offset = random.NextInt64(0, expected.Length);
            int n = (int)Math.Min(buffer.Length, expected.Length - offset);
            file.ReadExactly(offset, buffer.AsSpan(0, n));
            Assert.That(buffer.AsSpan(0, n).SequenceEqual(expected.AsSpan((int)offset, n)), Is.True, $"4 KiB at {offset}");
        }
    }
}
