using ArchiveEmu.Core.VirtualFiles;
using BenchmarkDotNet.Attributes;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// A 4 KiB random read through a virtual file vs a direct RandomAccess.Read of the same bytes, warm
/// page cache. The virtual file is a shuffled patchwork of slices of one 128 MiB file, so each virtual
/// offset maps to a different file offset; the difference of the two means is the engine's overhead.
/// </summary>
[MemoryDiagnoser]
public class VirtualFileReadBenchmarks
{
    private const int ReadSize = 4096;
    private const int ReadsPerInvoke = 1024;
    private const long BackingSize = 128L << 20;

    private string _path = "";
    private SafeFileHandle _handle = null!;
    private VirtualFile _file = null!;
    private long[] _virtualOffsets = [];
    private long[] _fileOffsets = [];
    private readonly byte[] _buffer = new byte[ReadSize];

    [Params(64, 16384)]
    public int Segments { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _path = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-{Environment.ProcessId}.bin");
        var random = new Random(42);
        using (var stream = File.Create(_path))
        {
            var chunk = new byte[1 << 20];
            for (long i = 0; i < BackingSize; i += chunk.Length)
            {
                random.NextBytes(chunk);
                stream.Write(chunk);
            }
        }
        _handle = File.OpenHandle(_path);

        long segmentLength = BackingSize / Segments;
        var order = Enumerable.Range(0, Segments).ToArray();
        random.Shuffle(order);
        var builder = new VirtualFileBuilder(new FileHandlePool(16));
        foreach (int slot in order)
            builder.AppendFile(_path, slot * segmentLength, segmentLength);
        _file = builder.Build();

        // Reads inside one segment, so both sides make exactly one syscall for the same bytes.
        _virtualOffsets = new long[ReadsPerInvoke];
        _fileOffsets = new long[ReadsPerInvoke];
        for (int i = 0; i < ReadsPerInvoke; i++)
        {
            int segment = random.Next(Segments);
            long within = random.NextInt64(segmentLength - ReadSize + 1);
            _virtualOffsets[i] = segment * segmentLength + within;
            _fileOffsets[i] = order[segment] * segmentLength + within;
        }

        Span<byte> a = stackalloc byte[ReadSize], b = stackalloc byte[ReadSize];
        for (int i = 0; i < ReadsPerInvoke; i++)
        {
            _file.Read(_virtualOffsets[i], a);
            RandomAccess.Read(_handle, b, _fileOffsets[i]);
            if (!a.SequenceEqual(b))
                throw new InvalidOperationException($"virtual and direct reads differ at read {i}");
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = ReadsPerInvoke)]
    public int DirectRandomAccessRead()
    {
        int total = 0;
        var offsets = _fileOffsets;
        for (int i = 0; i < offsets.Length; i++)
            total += RandomAccess.Read(_handle, _buffer, offsets[i]);
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
    public void Cleanup()
    {
        _file.Dispose();
        _handle.Dispose();
        File.Delete(_path);
    }
}
