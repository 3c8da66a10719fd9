using ArchiveEmu.Core.VirtualFiles;
using BenchmarkDotNet.Attributes;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// The engine's own per-read cost without a syscall to drown it: the same shuffled layout as
/// <see cref="VirtualFileReadBenchmarks"/>, but every segment is a slice of one in-memory array, and the
/// baseline copies the same 4 KiB straight from that array. The difference is segment lookup (hint +
/// binary search), source dispatch and the copy loop.
/// </summary>
public class VirtualFileLookupBenchmarks
{
    private const int ReadSize = 4096;
    private const int ReadsPerInvoke = 1024;
    private const int BackingSize = 128 << 20;

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

        int segmentLength = BackingSize / Segments;
        var order = Enumerable.Range(0, Segments).ToArray();
        random.Shuffle(order);
        var builder = new VirtualFileBuilder();
        foreach (int slot in order)
            builder.AppendBytes(_backing.AsMemory(slot * segmentLength, segmentLength));
        _file = builder.Build();

        _virtualOffsets = new long[ReadsPerInvoke];
        _arrayOffsets = new int[ReadsPerInvoke];
        for (int i = 0; i < ReadsPerInvoke; i++)
        {
            int segment = random.Next(Segments);
            int within = random.Next(segmentLength - ReadSize + 1);
            _virtualOffsets[i] = (long)segment * segmentLength + within;
            _arrayOffsets[i] = order[segment] * segmentLength + within;
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
