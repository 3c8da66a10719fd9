using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>Thousands of seeded random reads of virtual files compared with a materialised byte[].</summary>
public sealed class VirtualFileDifferentialTests
{
    private const byte Sentinel = 0xCD;

    [TestCase(1, 1)]
    [TestCase(2, 2)]
    [TestCase(3, 7)]
    [TestCase(4, 64)]
    [TestCase(5, 1000)]
    [TestCase(6, 16384)]
    public void Read_RandomOffsetsAndLengths_MatchMaterialisedBytes(int seed, int segmentCount)
    {
        using var folder = new TempDirectory("diff");
        var backing = RandomVirtualFile.WriteBackingFiles(folder, seed, 4, 64 * 1024);
        using var vf = RandomVirtualFile.Create(seed, segmentCount, backing);
        var expected = vf.Expected;
        Assert.That(vf.File.Length, Is.EqualTo(expected.Length));

        var random = new Random(seed);
        var buffer = new byte[20000];
        for (int i = 0; i < 3000; i++)
        {
            long offset = PickOffset(random, expected.Length);
            int length = random.Next(6) == 0 ? 0 : random.Next(1, buffer.Length);
            var destination = buffer.AsSpan(0, length);
            buffer.AsSpan().Fill(Sentinel);

            int read = vf.File.Read(offset, destination);

            int wanted = (int)Math.Clamp(expected.Length - offset, 0, length);
            Assert.That(read, Is.EqualTo(wanted), $"read {i}: {length} bytes at {offset} of {expected.Length}");
            Assert.That(destination[..read].SequenceEqual(expected.AsSpan((int)Math.Min(offset, expected.Length), read)), Is.True,
                $"read {i}: bytes differ ({length} at {offset})");
            Assert.That(buffer.AsSpan(read).IndexOfAnyExcept(Sentinel), Is.EqualTo(-1), $"read {i} wrote past the bytes it returned");
        }
    }

    [Test]
    public void Read_EverySegmentBoundary_ReturnsBytesFromBothSides()
    {
        using var folder = new TempDirectory("bounds");
        var backing = RandomVirtualFile.WriteBackingFiles(folder, 11, 3, 16 * 1024);
        using var vf = RandomVirtualFile.Create(11, 500, backing, maxSegmentLength: 300);
        var buffer = new byte[7];

        foreach (var segment in vf.File.Segments.ToArray().Skip(1))
        {
            long start = segment.VirtualOffset - 3;
            int read = vf.File.Read(start, buffer);
            int wanted = (int)Math.Min(buffer.Length, vf.Expected.Length - start);
            Assert.That(read, Is.EqualTo(wanted));
            Assert.That(buffer.AsSpan(0, read).SequenceEqual(vf.Expected.AsSpan((int)start, read)), Is.True, $"boundary at {segment.VirtualOffset}");
        }
    }

    [Test]
    public void Stream_ReadsAndSeeksInRandomPieces_MatchMaterialisedBytes()
    {
        using var folder = new TempDirectory("stream");
        var backing = RandomVirtualFile.WriteBackingFiles(folder, 21, 2, 32 * 1024);
        using var vf = RandomVirtualFile.Create(21, 300, backing);
        using var stream = vf.File.OpenStream();
        var random = new Random(21);

        var whole = new byte[vf.Expected.Length];
        stream.ReadExactly(whole);
        Assert.That(whole, Is.EqualTo(vf.Expected));
        Assert.That(stream.Read(new byte[10]), Is.EqualTo(0), "read at EOF");

        for (int i = 0; i < 500; i++)
        {
            long target = random.NextInt64(vf.Expected.Length + 100);
            Assert.That(stream.Seek(target - stream.Position, SeekOrigin.Current), Is.EqualTo(target));
            var piece = new byte[random.Next(1, 5000)];
            int read = stream.Read(piece, 0, piece.Length);
            int wanted = (int)Math.Clamp(vf.Expected.Length - target, 0, piece.Length);
            Assert.That(read, Is.EqualTo(wanted));
            Assert.That(piece.AsSpan(0, read).SequenceEqual(vf.Expected.AsSpan((int)Math.Min(target, vf.Expected.Length), read)), Is.True);
            Assert.That(stream.Position, Is.EqualTo(target + read));
        }
    }

    [Test]
    public void Stream_SeekBeforeStartOrWrite_Throws()
    {
        using var file = new Core.VirtualFiles.VirtualFileBuilder().AppendBytes(new byte[] { 1, 2, 3 }).Build();
        using var stream = file.OpenStream();
        Assert.That(() => stream.Seek(-1, SeekOrigin.Begin), Throws.InstanceOf<IOException>());
        Assert.That(() => stream.Write(new byte[1], 0, 1), Throws.InstanceOf<NotSupportedException>());
        Assert.That(stream.CanWrite, Is.False);
        Assert.That(stream.Seek(-1, SeekOrigin.End), Is.EqualTo(2));
        Assert.That(stream.ReadByte(), Is.EqualTo(3));
        Assert.That(stream.ReadByte(), Is.EqualTo(-1));
    }

    [Test]
    public void Read_NegativeOffset_Throws()
    {
        using var file = new Core.VirtualFiles.VirtualFileBuilder().AppendZeros(10).Build();
        Assert.That(() => file.Read(-1, new byte[1]), Throws.InstanceOf<ArgumentOutOfRangeException>());
    }

    private static long PickOffset(Random random, long length) => random.Next(8) switch
    {
        0 => length,                            // exactly at EOF
        1 => length + random.Next(1, 100000),   // past EOF
        2 => 0,
        3 => Math.Max(0, length - random.Next(1, 64)), // just before EOF
        _ => random.NextInt64(Math.Max(1, length)),
    };
}
