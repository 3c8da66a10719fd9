using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.Host.Mount;
using BenchmarkDotNet.Attributes;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// A 4 KiB random read through a virtual file vs a direct RandomAccess.Read of the same bytes, warm
/// page cache. The virtual file is a patchwork of 8 KiB slices taken at random places of one 16 MiB file
/// (small enough to stay in the CPU's L3, so both sides copy warm data), so each virtual offset maps
/// to a different file offset; the difference of the two means is the engine's overhead. <see cref="GuardedVirtualFileRead"/>
/// is the same read as the mount's host serves it, checked by its <see cref="SourceGuard"/> (one stat of the source per read).
/// </summary>
[MemoryDiagnoser]
public class VirtualFileReadBenchmarks
{
    private const int ReadSize = 4096;
    private const int ReadsPerInvoke = 1024;
    private const long BackingSize = 16L << 20;
    private const long SegmentLength = 8192;

    private string _path = "";
    private SafeFileHandle _handle = null!;
    private VirtualFile _file = null!;
    private long[] _virtualOffsets = [];
    private long[] _fileOffsets = [];
    private SourceGuard _guard = null!;
    private readonly ReadRun _run = new(); // one open file's, as the host has per FUSE handle
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

        var sources = new long[Segments];
        var builder = new VirtualFileBuilder(new FileHandlePool(16));
        for (int s = 0; s < Segments; s++)
        {
            sources[s] = random.NextInt64(BackingSize - SegmentLength + 1);
            builder.AppendFile(_path, sources[s], SegmentLength);
        }
        _file = builder.Build();
        _guard = SourceGuard.For(_file)!;

        // Reads inside one segment, so both sides make exactly one syscall for the same bytes.
        _virtualOffsets = new long[ReadsPerInvoke];
        _fileOffsets = new long[ReadsPerInvoke];
        for (int i = 0; i < ReadsPerInvoke; i++)
        {
            int segment = random.Next(Segments);
            long within = random.NextInt64(SegmentLength - ReadSize + 1);
            _virtualOffsets[i] = segment * SegmentLength + within;
            _fileOffsets[i] = sources[segment] + within;
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

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int GuardedVirtualFileRead()
    {
        int total = 0;
        var offsets = _virtualOffsets;
        for (int i = 0; i < offsets.Length; i++)
            total += _file.ReadChecked(offsets[i], _buffer, _run, _guard);
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
