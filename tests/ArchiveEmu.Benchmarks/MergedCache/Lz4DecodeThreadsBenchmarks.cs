using ArchiveEmu.Core.MergedCache.Policy;
using BenchmarkDotNet.Attributes;
using K4os.Compression.LZ4;

namespace ArchiveEmu.Benchmarks.MergedCache;

/// <summary>
/// The ceiling of decoding ahead: LZ4 decode of 16 MiB of texture-like 64 KiB chunks (as <see cref="Lz4Speed"/> samples,
/// as the merged cache stores them) by 1 and 2 threads, each thread a half of the chunks. MB/s = 16.8 MB / mean; compare
/// with `bench`'s warm solid MB/s, measured in the same session.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- --filter '*Lz4DecodeThreads*'</c>
/// </summary>
[SimpleJob(warmupCount: 5, iterationCount: 15)]
public class Lz4DecodeThreadsBenchmarks
{
    private const int ChunkBytes = 64 * 1024, SampleBytes = 16 << 20;
    private byte[][] _packed = [];
    private byte[][] _outputs = [];

    [Params(1, 2)]
    public int Threads { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var raw = Lz4Speed.TextureLike(SampleBytes);
        _packed = Enumerable.Range(0, SampleBytes / ChunkBytes).Select(i =>
        {
            var target = new byte[LZ4Codec.MaximumOutputSize(ChunkBytes)];
            int n = LZ4Codec.Encode(raw.AsSpan(i * ChunkBytes, ChunkBytes), target, LZ4Level.L00_FAST);
            return target[..n];
        }).ToArray();
        _outputs = Enumerable.Range(0, Threads).Select(_ => new byte[ChunkBytes]).ToArray();
    }

    [Benchmark]
    public void Decode16MiB()
    {
        if (Threads == 1)
            DecodeShare(0);
        else
            Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, DecodeShare);
    }

    private void DecodeShare(int thread)
    {
        var output = _outputs[thread];
        for (int i = thread; i < _packed.Length; i += Threads)
            LZ4Codec.Decode(_packed[i], output);
    }
}
