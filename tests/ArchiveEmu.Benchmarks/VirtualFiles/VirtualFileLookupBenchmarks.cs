using ArchiveEmu.Core.VirtualFiles;
using BenchmarkDotNet.Attributes;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// The engine's own per-read cost without a syscall to drown it: the same layout as
/// <see cref="VirtualFileReadBenchmarks"/> (8 KiB segments, each a slice at a random place of a 16 MiB
/// backing store that stays in the CPU's L3), but the backing store is an in-memory array and the
/// baseline copies the same 4 KiB straight from it. The difference is segment lookup (hint, fences,
/// block search), source dispatch and the copy loop.
/// </summary>
public class VirtualFileLookupBenchmarks
{
    private const int ReadSize = 4096;
    private const int ReadsPerInvoke = 1024;
    private const int BackingSize = 16 << 20;
    private const int SegmentLength = 8192;

    private byte[] _backing = [];
    private VirtualFile _file = null!;
    private long[] _virtualOffsets = [];
    private int[] _arrayOffsets = [];
    private readonly byte[] _buffer = new byte[ReadSize];

    [Params(64, 16384)]
    public int Segments { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        _backing = new byte[BackingSize];
        random.NextBytes(_backing);

        var sources = new int[Segments];
        var builder = new VirtualFileBuilder();
        for (int s = 0; s < Segments; s++)
        {
            sources[s] = random.Next(BackingSize - SegmentLength + 1);
            builder.AppendBytes(_backing.AsMemory(sources[s], SegmentLength));
        }
        _file = builder.Build();

        // Reads inside one segment, so both sides copy the same 4 KiB once.
        _virtualOffsets = new long[ReadsPerInvoke];
        _arrayOffsets = new int[ReadsPerInvoke];
        for (int i = 0; i < ReadsPerInvoke; i++)
        {
            int segment = random.Next(Segments);
            int within = random.Next(SegmentLength - ReadSize + 1);
            _virtualOffsets[i] = (long)segment * SegmentLength + within;
            _arrayOffsets[i] = sources[segment] + within;
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = ReadsPerInvoke)]
    public int DirectArrayCopy()
    {
        int total = 0;
        var offsets = _arrayOffsets;
        for (int i = 0; i < offsets.Length; i++)
        {
            _backing.AsSpan(offsets[i], ReadSize).CopyTo(_buffer);
            total += ReadSize;
        }
        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int VirtualFileRead()
    {
        int total = 0;
        var offsets = _virtualOffsets;
        for (int i = 0; i < offsets.Length; i++)
            total += _file.Read(offsets[i], _buffer);
        return total;
    }

    [GlobalCleanup]
    public void Cleanup() => _file.Dispose();
}
