using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Benchmarks.VirtualFiles;

/// <summary>
/// The reads of <see cref="VirtualFileLookupBenchmarks"/> and <see cref="VirtualFileReadBenchmarks"/> as a plain loop, for
/// tools that count per read what a timer cannot show: syscalls (<c>strace -c -f</c>) and instructions (valgrind, which runs
/// the loop twice as long for twice the reads, so the difference of two counts is per read and start-up cancels out).
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- readloop (memory|array|file|pread) SEGMENTS READS</c>
/// </summary>
internal static class ReadLoop
{
    private const int ReadSize = 4096;
    private const int SegmentLength = 8192;
    private const int BackingSize = 16 << 20;
    private const int Distinct = 1024;

    public static int Run(string[] args)
    {
        if (args.Length != 3 || !int.TryParse(args[1], out int segments) || !int.TryParse(args[2], out int reads))
        {
            Console.Error.WriteLine("readloop (memory|array|file|pread) SEGMENTS READS");
            return 2;
        }
        var random = new Random(42);
        var backing = new byte[BackingSize];
        random.NextBytes(backing);
        var sources = new int[segments];
        for (int s = 0; s < segments; s++)
            sources[s] = random.Next(BackingSize - SegmentLength + 1);
        var virtualOffsets = new long[Distinct];
        var sourceOffsets = new int[Distinct];
        for (int i = 0; i < Distinct; i++)
        {
            int segment = random.Next(segments);
            int within = random.Next(SegmentLength - ReadSize + 1);
            virtualOffsets[i] = (long)segment * SegmentLength + within;
            sourceOffsets[i] = sources[segment] + within;
        }

        string path = Path.Combine(Path.GetTempPath(), $"archiveemu-readloop-{Environment.ProcessId}.bin");
        File.WriteAllBytes(path, backing);
        try
        {
            var builder = new VirtualFileBuilder(new FileHandlePool(16));
            for (int s = 0; s < segments; s++)
            {
                if (args[0] == "file")
                    builder.AppendFile(path, sources[s], SegmentLength);
                else
                    builder.AppendBytes(backing.AsMemory(sources[s], SegmentLength));
            }
            using var file = builder.Build();
            using var handle = File.OpenHandle(path);
            var buffer = new byte[ReadSize];
            // One loop per mode, so that each pays the same loop around its read and nothing else.
            long total = 0;
            switch (args[0])
            {
                case "array":
                    for (int i = 0; i < reads; i++)
                        total += CopyFrom(backing, sourceOffsets[i & (Distinct - 1)], buffer);
                    break;
                case "pread":
                    for (int i = 0; i < reads; i++)
                        total += RandomAccess.Read(handle, buffer, sourceOffsets[i & (Distinct - 1)]);
                    break;
                default:
                    for (int i = 0; i < reads; i++)
                        total += ReadThrough(file, virtualOffsets[i & (Distinct - 1)], buffer);
                    break;
            }
            Console.WriteLine($"{args[0]}: {reads} reads, {total} bytes");
            return 0;
        }
        finally
        {
            File.Delete(path);
        }
    }

    // Not inlined, so that DOTNET_JitDisasm=ReadThrough shows one read's whole path (Read inlined into it) on its own.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static int ReadThrough(VirtualFile file, long offset, byte[] buffer) => file.Read(offset, buffer);

    private static int CopyFrom(byte[] backing, int offset, byte[] buffer)
    {
        backing.AsSpan(offset, ReadSize).CopyTo(buffer);
        return ReadSize;
    }
}
