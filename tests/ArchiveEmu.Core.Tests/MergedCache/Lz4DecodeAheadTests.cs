using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.Tests.VirtualFiles;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// An LZ4 merged archive read with decoding ahead on background threads and decoded chunks kept between opens: every
/// read gives exactly the emulated bytes — streamed, at random, by several threads, jumping back, closed mid-read — a
/// damaged chunk is never served nor kept, a rebuilt archive's old bytes are never served, and the store stays bounded.
/// </summary>
public sealed class Lz4DecodeAheadTests
{
    private const int ChunkSize = 16 * 1024;
    private const int MiB = 1 << 20;
    private const string Archive = "data/tex.afs";
    private CacheTestGame _game = null!;
    private MergedFileCache _cache = null!;
    private byte[] _expected = null!;

    [SetUp]
    public void CreateGame()
    {
        _game = new CacheTestGame(entries: 64, entrySize: 100_000, entryBytes: TextLike); // ~6.4 MB, ~400 chunks
        _cache = _game.Cache(ChunkSize);
        _game.BuildAll(_cache, merge: true, ChunkCompression.Lz4);
        _expected = _game.Emulated(Archive);
        Assert.That(Table.Codecs.Count(c => c == ChunkCodec.Lz4), Is.GreaterThan(Table.Count * 3 / 4), "mostly LZ4 chunks");
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    private MergedExtent Merged => _cache.ReadIndex().Entries.Single(e => e.Route.EndsWith("tex.afs", StringComparison.Ordinal)).Merged!;
    private ChunkTable Table => _cache.ReadChunkTable(Merged);
    private long Lz4Bytes => Enumerable.Range(0, Table.Count).Where(c => Table.Codecs[c] == ChunkCodec.Lz4).Sum(c => (long)Table.RawLength(c));

    [Test]
    public void StreamingReads_ServeTheEmulatedBytes_AndKeepEveryLz4Chunk_ForTheNextOpen()
    {
        var store = new DecodedChunkStore(64 * MiB);
        var damage = new List<string>();
        using (var file = Open(store, damage))
            Assert.That(LargeFolioReadTests.ReadThrough(file), Is.EqualTo(_expected), "first pass: decoded, ahead and by the reader");
        Assert.That(() => store.Bytes, Is.EqualTo(Lz4Bytes).After(30_000, 20), "every LZ4 chunk kept (by the background threads)");
        using (var again = Open(store, damage))
            Assert.That(LargeFolioReadTests.ReadThrough(again), Is.EqualTo(_expected), "second open: from the store");
        Assert.That(damage, Is.Empty);
    }

    [Test]
    public void AfterOneStreamingRead_TheChunksAheadAreDecodedWithoutTheReader()
    {
        var store = new DecodedChunkStore(64 * MiB);
        using var file = Open(store, new List<string>());
        var block = new byte[MiB];
        file.ReadExactly(0, block);
        long readerKept = Enumerable.Range(0, MiB / ChunkSize).Where(c => Table.Codecs[c] == ChunkCodec.Lz4).Sum(c => (long)Table.RawLength(c)); // kept behind it
        Assert.That(() => store.Bytes, Is.GreaterThan(readerKept + MiB).After(30_000, 20), "chunks past the reader decoded in the background");
        Assert.That(store.Bytes, Is.LessThanOrEqualTo(readerKept + 4 * MiB + 8 * ChunkSize), "no further than the window ahead");
    }

    [Test]
    public void RandomReads_WholeChunkRunsJumpsBackAndPartialChunks_ServeTheEmulatedBytes()
    {
        var store = new DecodedChunkStore(64 * MiB);
        var damage = new List<string>();
        using var file = Open(store, damage);
        var random = new Random(20);
        var buffer = new byte[2 * MiB + 100];
        long at = 0;
        for (int i = 0; i < 300; i++)
        {
            // mostly streaming 1 MiB blocks, with jumps back, forward, to the start, and partial reads between
            switch (random.Next(6))
            {
                case 0: at = random.NextInt64(0, file.Length / ChunkSize) * ChunkSize; break;
                case 1: at = 0; break;
                case 2: at = random.NextInt64(0, file.Length); break;
            }
            int length = random.Next(4) == 0 ? random.Next(1, 3 * ChunkSize) : MiB;
            AssertRead(file, at, buffer.AsSpan(0, length), $"read {i} at {at}+{length}");
            at = Math.Min(at + length, file.Length);
        }
        Assert.That(damage, Is.Empty);
    }

    [Test]
    public void SeveralThreadsReadingOneFile_EachGetTheEmulatedBytes([Values(64L << 20, 8 * ChunkSize)] long capacity)
    {
        var store = new DecodedChunkStore(capacity); // the small one evicts what the threads are about to read
        var damage = new List<string>();
        using var file = Open(store, damage);
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
        var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            var buffer = new byte[MiB];
            var random = new Random(t);
            for (int pass = 0; pass < 3; pass++)
            {
                for (long at = t * 3 * ChunkSize % file.Length; at < file.Length; at += random.Next(4) == 0 ? ChunkSize * 7 + 5 : MiB)
                {
                    int n = file.Read(at, buffer);
                    if (!buffer.AsSpan(0, n).SequenceEqual(_expected.AsSpan((int)at, n)))
                        failures.Add($"thread {t}, pass {pass}: read at {at}+{n}");
                }
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        Assert.That(failures, Is.Empty);
        Assert.That(damage, Is.Empty);
        Assert.That(store.Bytes, Is.LessThanOrEqualTo(capacity));
    }

    [Test]
    public void AFileClosedMidRead_StopsItsDecodingAhead_AndTheNextOpenServesTheEmulatedBytes()
    {
        var store = new DecodedChunkStore(64 * MiB);
        var damage = new List<string>();
        var block = new byte[MiB];
        for (int i = 0; i < 5; i++)
        {
            var file = Open(store, damage);
            file.ReadExactly(i * (long)ChunkSize, block); // queues the window ahead; the close races with it
            file.Dispose();
        }
        using var reopened = Open(store, damage);
        Assert.That(LargeFolioReadTests.ReadThrough(reopened), Is.EqualTo(_expected));
        Assert.That(damage, Is.Empty);
    }

    [TestCase(false)]
    [TestCase(true)]
    public void ADamagedLz4Chunk_IsNeverServedNorKept_TheReaderFallsBackToEmulation(bool aheadFirst)
    {
        // past the first 1 MiB read, inside the window the background threads decode after it, with an LZ4 chunk after it
        int damaged = Enumerable.Range(MiB / ChunkSize + 4, 100).First(c => Table.Codecs[c] == ChunkCodec.Lz4 && Table.Codecs[c + 1] == ChunkCodec.Lz4);
        var merged = Merged;
        CacheTestGame.FlipByte(_cache.PathOf(merged.Chunks), merged.Chunks.Offset + Table.StoredOffsets[damaged] + Table.StoredLengths[damaged] / 2);
        var store = new DecodedChunkStore(64 * MiB);
        var damage = new List<string>();
        using var file = Open(store, damage);
        var key = new ChunkKey(FileIdentity.Of(_cache.PathOf(merged.Chunks)), merged.Chunks.Offset, damaged, Table.Hashes[damaged]);
        if (aheadFirst)
        {
            file.ReadExactly(0, new byte[MiB]); // the background threads meet the damaged chunk before the reader does
            var next = key with { Index = damaged + 1, Hash = Table.Hashes[damaged + 1] };
            Assert.That(() => store.Contains(next), Is.True.After(30_000, 20), "the background threads went past it");
            Assert.That(store.Contains(key), Is.False, "the background threads kept the damaged chunk");
            Assert.That(damage, Is.Empty, "damage is the reader's to find");
        }
        Assert.That(LargeFolioReadTests.ReadThrough(file), Is.EqualTo(_expected), "re-served by emulation");
        Assert.That(damage, Has.Some.Contains("fails its hash check").Or.Some.Contains("does not decode"));
        Assert.That(store.Contains(key), Is.False);
    }

    [Test]
    public void ARebuiltArchive_IsNeverServedTheOldArchivesKeptBytes()
    {
        using (var file = _game.Game(_cache).OpenFile(Archive)) // through the cache: the process-wide store
            Assert.That(LargeFolioReadTests.ReadThrough(file), Is.EqualTo(_expected));

        // Same sizes, other bytes, in a cache built again from nothing: same pack name, extent offset and chunk indexes
        File.WriteAllBytes(_game["mods/a/data/tex.afs/7_face.dds"], TestData.Random(77, 5_000));
        Directory.Delete(_game.CacheFolder, recursive: true);
        var rebuilt = _game.Cache(ChunkSize);
        _game.BuildAll(rebuilt, merge: true, ChunkCompression.Lz4);
        var expected = _game.Emulated(Archive);
        Assert.That(expected, Is.Not.EqualTo(_expected));
        using var again = _game.Game(rebuilt).OpenFile(Archive);
        Assert.That(again.Segments[0].Source.Describe(), Does.StartWith("merged cache"));
        Assert.That(LargeFolioReadTests.ReadThrough(again), Is.EqualTo(expected));
        Assert.That(_game.Warnings, Is.Empty);
    }

    [Test]
    public void TheStore_KeepsAtMostItsCapacity_OldestChunksGoFirst()
    {
        var store = new DecodedChunkStore(3 * ChunkSize);
        var identity = FileIdentity.Of(_cache.PathOf(Merged.Chunks));
        ChunkKey Key(int i) => new(identity, 0, i, (ulong)i);
        for (int i = 0; i < 5; i++)
        {
            store.Add(Key(i), new byte[ChunkSize]);
            Assert.That(store.Bytes, Is.LessThanOrEqualTo(store.Capacity));
        }
        Assert.That(Enumerable.Range(0, 5).Select(i => store.Contains(Key(i))), Is.EqualTo(new[] { false, false, true, true, true }));
        store.Add(Key(9), new byte[4 * ChunkSize]);
        Assert.That(store.Contains(Key(9)), Is.False, "larger than the whole store: not kept");
        Assert.That(store.Bytes, Is.EqualTo(3 * ChunkSize));
    }

    [Test]
    public void ClearShared_EmptiesTheProcessWideStore()
    {
        using (var file = _game.Game(_cache).OpenFile(Archive))
            LargeFolioReadTests.ReadThrough(file);
        Assert.That(() => DecodedChunkStore.Shared.Bytes, Is.GreaterThan(0).After(30_000, 20));
        DecodedChunkStore.ClearShared();
        Assert.That(DecodedChunkStore.Shared.Bytes, Is.EqualTo(0));
    }

    private VirtualFile Open(DecodedChunkStore store, List<string> damage)
    {
        var merged = Merged;
        string pack = _cache.PathOf(merged.Chunks);
        var handle = File.OpenHandle(pack, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var source = new MergedSource(handle, pack, merged.Chunks.Offset, Table, () => _game.Game().OpenFile(Archive),
            reason => { lock (damage) damage.Add(reason); }, decoded: store,
            packIdentity: FileIdentity.Of(handle));
        return VirtualFile.OverSource(source, merged.Length, source);
    }

    private void AssertRead(VirtualFile file, long at, Span<byte> buffer, string what)
    {
        buffer.Fill(0xCD);
        int n = file.Read(at, buffer);
        int want = (int)Math.Clamp(_expected.Length - at, 0, buffer.Length);
        Assert.That(n, Is.EqualTo(want), what);
        Assert.That(buffer[..n].SequenceEqual(_expected.AsSpan((int)at, n)), Is.True, what);
    }

    // Runs of repeated words between random stretches: LZ4 stores about half, as it does game data between text and noise.
    private static byte[] TextLike(int seed, int length)
    {
        var random = new Random(seed);
        var bytes = new byte[length];
        var words = "texture vertex normal shader bone "u8;
        for (int at = 0; at < length; at += 256)
        {
            var block = bytes.AsSpan(at, Math.Min(256, length - at));
            if (random.Next(2) == 0)
                random.NextBytes(block);
            else
                for (int i = 0; i < block.Length; i++)
                    block[i] = words[(i + seed) % words.Length];
        }
        return bytes;
    }
}
