using ArchiveEmu.TestSupport;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A seeded random virtual file (slices of a few backing files, in-memory bytes, zeros) together with
/// the bytes it must read as, materialised independently of the engine.
/// </summary>
internal sealed class RandomVirtualFile : IDisposable
{
    private RandomVirtualFile(VirtualFile file, byte[] expected)
    {
        File = file;
        Expected = expected;
    }

    public VirtualFile File { get; }
    public byte[] Expected { get; }

    /// <summary>Backing files written into <paramref name="folder"/>: <paramref name="count"/> files of <paramref name="size"/> random bytes.</summary>
    public static (string Path, byte[] Bytes)[] WriteBackingFiles(TempDirectory folder, int seed, int count, int size) =>
        Enumerable.Range(0, count)
            .Select(i => (folder.Write($"backing-{seed}-{i}.bin", TestData.Random(seed * 31 + i, size)), TestData.Random(seed * 31 + i, size)))
            .ToArray();

    /// <summary>Builds a file of <paramref name="segmentCount"/> segments; adjacent pieces may merge, so the engine may report fewer.</summary>
    public static RandomVirtualFile Create(int seed, int segmentCount, (string Path, byte[] Bytes)[] backing,
        FileHandlePool? pool = null, int maxSegmentLength = 3000)
    {
        var random = new Random(seed);
        var builder = new VirtualFileBuilder(pool);
        var expected = new List<byte>();
        var pieces = new List<Action>();

        for (int i = 0; i < segmentCount; i++)
        {
            int kind = random.Next(10);
            int length = random.Next(1, maxSegmentLength + 1);
            long at = expected.Count;
            if (kind < 7)
            {
                var (path, bytes) = backing[random.Next(backing.Length)];
                length = Math.Min(length, bytes.Length);
                int offset = random.Next(bytes.Length - length + 1);
                expected.AddRange(bytes.AsSpan(offset, length).ToArray());
                pieces.Add(() => builder.AddFile(at, path, offset, length));
            }
            else if (kind < 9)
            {
                var bytes = TestData.Random(seed * 7919 + i, length);
                expected.AddRange(bytes);
                pieces.Add(() => builder.AddBytes(at, bytes));
            }
            else
            {
                expected.AddRange(new byte[length]);
                pieces.Add(() => builder.AddZeros(at, length));
            }
        }

        // Add in shuffled order: the builder must sort.
        var order = pieces.ToArray();
        random.Shuffle(order);
        foreach (var add in order)
            add();
        return new RandomVirtualFile(builder.Build(), expected.ToArray());
    }

    public void Dispose() => File.Dispose();
}
