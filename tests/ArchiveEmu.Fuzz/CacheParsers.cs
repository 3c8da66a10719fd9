using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Fuzz;

/// <summary>
/// Fuzzing targets of the merged cache's own parsers, each catching only the error its code documents for damage. The index
/// and verified.bin are closed by a checksum: an input without their magic is taken as the payload and sealed, so the
/// fuzzer reaches the JSON behind it; an input with the magic is parsed as it is.
/// </summary>
internal static class CacheParsers
{
    private static ReadOnlySpan<byte> IndexMagic => "AEMCIDX\0"u8;
    private static ReadOnlySpan<byte> VerifiedMagic => "AEMCVRFD"u8;

    /// <summary>The chunk table's input starts with the entry fields it is checked against: i64 length, i32 chunk size, i64 stored length.</summary>
    public const int ExtentBytes = 20;

    // CacheIndex.Deserialize: "a damaged or foreign file is an InvalidDataException saying what is wrong"; then its entries are read.
    public static void Index(byte[] bytes)
    {
        try
        {
            var index = CacheIndex.Deserialize(bytes.AsSpan().StartsWith(IndexMagic) ? bytes : CacheEnvelope.Seal(IndexMagic, CacheFormat.Version, bytes));
            _ = index.Find("fuzz");
            foreach (var e in index.Entries) // what the cache reads of an entry, none of it nullable
                _ = e.Key.Length + e.Route.Length + e.Format.Length + e.Layout.Pack.Length + e.Layout.Hash.Length +
                    (e.Merged is { } m ? m.Compression.Length + m.Chunks.Pack.Length + m.Chunks.Hash.Length + m.Table.Pack.Length + m.Table.Hash.Length : 0);
        }
        catch (InvalidDataException)
        {
        }
    }

    // ArchiveLayout.Deserialize: "a damaged layout is an InvalidDataException, never another exception" (LayoutReader). Files
    // are opened only when read, so nothing is read: a mutated layout names any path on this machine.
    public static void Layout(byte[] bytes)
    {
        try
        {
            using var archive = ArchiveLayout.Deserialize(bytes, pool: null);
            _ = archive.File.Length;
        }
        catch (InvalidDataException)
        {
        }
    }

    // ChunkTable.Deserialize: every field checked against the entry; damage is an InvalidDataException.
    public static void Chunks(byte[] bytes)
    {
        if (bytes.Length < ExtentBytes)
            return;
        var extent = Extent(bytes);
        try
        {
            var table = ChunkTable.Deserialize(bytes.AsSpan(ExtentBytes), extent);
            for (int i = 0; i < table.Count; i++)
                _ = table.RawLength(i);
        }
        catch (InvalidDataException)
        {
        }
    }

    // VerifiedExtents.Load: missing, damaged or of another boot, it trusts nothing (and throws nothing); what it loaded is used.
    public static void Verified(byte[] bytes, string scratch)
    {
        File.WriteAllBytes(Path.Combine(scratch, VerifiedExtents.FileName),
            bytes.AsSpan().StartsWith(VerifiedMagic) ? bytes : CacheEnvelope.Seal(VerifiedMagic, 1, bytes));
        var verified = VerifiedExtents.Load(scratch, Boot);
        _ = verified.Covers(Pack, Identity, new VerifiedSpan(0, 100));
        verified.Checked(Pack, Identity, Identity, [new VerifiedSpan(100, 50)]);
        verified.KeepOnly([Pack]);
        _ = verified.Serialize();
    }

    private const string Boot = "fuzz-boot";
    private const string Pack = "00000001.pack";
    private static readonly FileIdentity Identity = new(4096, new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc), new DateTime(2026, 1, 2, 3, 4, 6, DateTimeKind.Utc), 77);

    private static MergedExtent Extent(byte[] bytes) => new(BinaryPrimitives.ReadInt64LittleEndian(bytes), "lz4",
        BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(8)), new CacheExtent(Pack, 16, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(12)), "00"),
        new CacheExtent(Pack, 0, 16, "00"));

    public static IReadOnlyList<(string Name, byte[] Bytes)> Seeds(string target, string scratch) => target switch
    {
        "cacheindex" => [("two entries", new CacheIndex([Entry("a", merged: null), Entry("b", Merged())]).Serialize())],
        "layout" => [("AFS of three entries", AfsLayout(scratch))],
        "chunktable" => [("three chunks", ChunkTableSeed())],
        "verified" => [("one pack", VerifiedSeed(scratch))],
        _ => throw new ArgumentOutOfRangeException(nameof(target), target, "not a cache parser"),
    };

    private static CacheEntry Entry(string key, MergedExtent? merged) =>
        new(key, $"data/{key}.afs", "afs", 3000, new DateTime(2026, 11, 27, 0, 0, 0, DateTimeKind.Utc), new CacheExtent(Pack, 16, 200, "0011"), merged);

    private static MergedExtent Merged() => new(3000, "lz4", 1024, new CacheExtent(Pack, 216, 2500, "aa"), new CacheExtent(Pack, 2716, 44, "bb"));

    private static byte[] ChunkTableSeed()
    {
        var table = new ChunkTable(1024, 3000, [1000, 700, 800], [ChunkCodec.Lz4, ChunkCodec.Raw, ChunkCodec.Lz4], [1, 2, 3]).Serialize();
        var bytes = new byte[ExtentBytes + table.Length];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, 3000);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), 1024);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(12), 2500);
        table.CopyTo(bytes.AsSpan(ExtentBytes));
        return bytes;
    }

    private static byte[] VerifiedSeed(string scratch)
    {
        var verified = VerifiedExtents.Load(scratch, Boot);
        verified.Checked(Pack, Identity, Identity, [new VerifiedSpan(0, 100), new VerifiedSpan(100, 50)]);
        return verified.Serialize();
    }

    // A real layout: an AFS built (with one entry replaced, so it has file, memory and zero segments) and saved as the cache saves it.
    private static byte[] AfsLayout(string scratch)
    {
        string path = Path.Combine(scratch, "seed.afs");
        File.WriteAllBytes(path, AfsTestWriter.Write([TestData.Random(1, 300), null, TestData.Random(2, 500)]));
        var format = ArchiveFormats.ByName("afs")!;
        var index = format.ReadIndex(path);
        var patch = new ArchivePatch([new EntryChange(EntryKey.ByIndex(0), EntryInput.FromBytes(TestData.Random(3, 100)), "seed")]);
        using var archive = format.Build(index, patch);
        return ArchiveLayout.Serialize(archive);
    }
}
