using System.Diagnostics;
using ArchiveEmu.Core.MergedCache.Packs;
using K4os.Compression.LZ4;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// LZ4 on the scenario's texture data, as the merged cache stores it (independent 64 KiB chunks, K4os
/// L00_FAST): stored/raw ratio, share of chunks that shrank, and decode speed in memory (no I/O, no hashing).
/// </summary>
internal sealed record Lz4Figures(double Ratio, double ChunksCompressed, Samples DecodeMbps)
{
    public static Lz4Figures Measure(ScenarioFiles files, int runs)
    {
        var game = files.OpenGame(files.Lz4CacheFolder);
        var cache = game.Cache!;
        var extent = game.Server.FindMerged(game.Plan.FindArchive(files.ArchivePath)!)!;
        var table = cache.ReadChunkTable(extent);
        var stored = new byte[extent.Chunks.Length];
        using (var pack = File.OpenHandle(cache.PathOf(extent.Chunks)))
        {
            for (int at = 0; at < stored.Length;)
            {
                int n = RandomAccess.Read(pack, stored.AsSpan(at), extent.Chunks.Offset + at);
                at += n > 0 ? n : throw new EndOfStreamException($"{cache.PathOf(extent.Chunks)}: shorter than its index says");
            }
        }

        var output = new byte[table.ChunkSize];
        var mbps = new List<double>();
        long decoded = 0;
        for (int run = 0; run < runs; run++)
        {
            decoded = 0;
            long start = Stopwatch.GetTimestamp();
            for (int i = 0; i < table.Count; i++)
            {
                if (table.Codecs[i] != ChunkCodec.Lz4)
                    continue;
                var chunk = stored.AsSpan((int)table.StoredOffsets[i], table.StoredLengths[i]);
                if (LZ4Codec.Decode(chunk, output.AsSpan(0, table.RawLength(i))) != table.RawLength(i))
                    throw new InvalidDataException($"{files.Lz4CacheFolder}: chunk {i} does not decode");
                decoded += table.RawLength(i);
            }
            double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
            mbps.Add(decoded == 0 ? 0 : decoded / seconds / 1e6);
        }
        int compressed = table.Codecs.Count(c => c == ChunkCodec.Lz4);
        return new Lz4Figures((double)extent.Chunks.Length / extent.Length, (double)compressed / table.Count, Samples.Of(mbps));
    }
}
