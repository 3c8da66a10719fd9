using ArchiveEmu.TestSupport;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

public sealed class VirtualFileBuilderTests
{
    [Test]
    public void Build_GapBetweenSegments_ThrowsNamingTheMissingRange()
    {
        var builder = new VirtualFileBuilder().AddZeros(0, 10).AddBytes(15, new byte[5]);
        Assert.That(() => builder.Build(), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("gap").And.Message.Contains("[10, 15)"));
    }

    [Test]
    public void Build_GapAtStart_Throws()
    {
        var builder = new VirtualFileBuilder().AddZeros(4, 10);
        Assert.That(() => builder.Build(), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("[0, 4)"));
    }

    [Test]
    public void Build_OverlappingSegments_ThrowsNamingTheOverlap()
    {
        var builder = new VirtualFileBuilder().AddZeros(0, 10).AddBytes(8, new byte[5]);
        Assert.That(() => builder.Build(), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("overlap").And.Message.Contains("[8, 13)"));
    }

    [Test]
    public void Build_DeclaredLengthLongerThanSegments_ThrowsTrailingGap()
    {
        var builder = new VirtualFileBuilder().AppendZeros(10);
        Assert.That(() => builder.Build(12), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("[10, 12)"));
        Assert.That(() => builder.Build(8), Throws.InstanceOf<InvalidDataException>().With.Message.Contains("past its declared length"));
    }

    [Test]
    public void Add_NegativeLengthOrOffset_Throws()
    {
        var builder = new VirtualFileBuilder();
        Assert.That(() => builder.AddZeros(0, -1), Throws.InstanceOf<ArgumentOutOfRangeException>().With.Message.Contains("negative"));
        Assert.That(() => builder.AddZeros(-5, 1), Throws.InstanceOf<ArgumentOutOfRangeException>());
        Assert.That(() => builder.AddFile(0, "x", -1, 1), Throws.InstanceOf<ArgumentOutOfRangeException>());
        Assert.That(() => builder.AddZeros(long.MaxValue, 2), Throws.InstanceOf<ArgumentOutOfRangeException>());
    }

    [Test]
    public void Build_AdjacentSlicesOfOneFile_MergeIntoOneSegment()
    {
        using var folder = new TempDirectory("merge");
        var bytes = TestData.Random(1, 1000);
        var path = folder.Write("a.bin", bytes);
        using var file = new VirtualFileBuilder()
            .AddFile(300, path, 300, 200) // added out of order on purpose
            .AddFile(0, path, 0, 300)
            .AddFile(500, path, 500, 500)
            .Build();

        Assert.That(file.Segments.Length, Is.EqualTo(1));
        var read = new byte[1000];
        file.ReadExactly(0, read);
        Assert.That(read, Is.EqualTo(bytes));
    }

    [Test]
    public void Build_AdjacentSlicesOfOneArray_MergeAndOthersStaySeparate()
    {
        var array = TestData.Random(4, 100);
        using var file = new VirtualFileBuilder()
            .AppendBytes(array.AsMemory(0, 40))
            .AppendBytes(array.AsMemory(40, 20))   // contiguous in the array: merges
            .AppendBytes(array.AsMemory(80, 20))   // skips 20 bytes: a new segment
            .AppendBytes(new byte[] { 1, 2 })      // another array: a new segment
            .Build();

        Assert.That(file.Segments.Length, Is.EqualTo(3));
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        Assert.That(bytes, Is.EqualTo(array[..60].Concat(array[80..]).Concat(new byte[] { 1, 2 }).ToArray()));
    }

    [Test]
    public void Build_NonContiguousSlicesOfOneFile_StaySeparate()
    {
        using var folder = new TempDirectory("nomerge");
        var path = folder.Write("a.bin", TestData.Random(2, 100));
        using var file = new VirtualFileBuilder().AppendFile(path, 0, 10).AppendFile(path, 20, 10).AppendZeros(3).AppendZeros(4).Build();
        Assert.That(file.Segments.Length, Is.EqualTo(3), "two file slices, and the two zero runs merged into one");
        Assert.That(file.Length, Is.EqualTo(27));
    }

    [Test]
    public void Build_SliceBeyondEndOfFile_ThrowsNamingTheFile()
    {
        using var folder = new TempDirectory("past");
        var path = folder.Write("short.bin", new byte[100]);
        var builder = new VirtualFileBuilder().AppendFile(path, 50, 60);
        Assert.That(() => builder.Build(), Throws.InstanceOf<IOException>().With.Message.Contains("short.bin").And.Message.Contains("past the end"));
    }

    [Test]
    public void Build_MissingFile_ThrowsNamingTheFile()
    {
        using var folder = new TempDirectory("missing");
        var builder = new VirtualFileBuilder().AppendFile(folder["nope.bin"], 0, 1);
        Assert.That(() => builder.Build(), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("nope.bin"));
    }

    [Test]
    public void Build_FailureAfterSomeFilesAcquired_ReleasesThemAll()
    {
        using var folder = new TempDirectory("release");
        var good = folder.Write("good.bin", new byte[10]);
        var pool = new FileHandlePool(4);
        var builder = new VirtualFileBuilder(pool).AppendFile(good, 0, 10).AppendFile(folder["missing.bin"], 0, 1);
        Assert.That(() => builder.Build(), Throws.InstanceOf<FileNotFoundException>());
        Assert.That(pool.FileCount, Is.Zero);
    }

    [Test]
    public void AppendSlice_OfAnotherVirtualFile_FlattensItsSegments()
    {
        using var folder = new TempDirectory("flatten");
        var a = TestData.Random(3, 500);
        var path = folder.Write("a.bin", a);
        using var inner = new VirtualFileBuilder().AppendBytes(new byte[] { 9, 9 }).AppendFile(path, 0, 500).AppendZeros(8).Build();

        using var outer = new VirtualFileBuilder().AppendBytes(new byte[] { 1 }).AppendSlice(inner, 1, 505).Build();
        inner.Dispose(); // the outer file must hold its own references

        Assert.That(outer.Segments.ToArray().Select(s => s.Source.GetType().Name),
            Is.EqualTo(new[] { "MemorySource", "MemorySource", "FileSource", "ZeroSource" }), "flattened, not stacked");
        var bytes = new byte[outer.Length];
        outer.ReadExactly(0, bytes);
        var expected = new byte[] { 1, 9 }.Concat(a).Concat(new byte[4]).ToArray();
        Assert.That(bytes, Is.EqualTo(expected));
    }

    [Test]
    public void AppendSlice_OutsideSource_Throws()
    {
        using var inner = new VirtualFileBuilder().AppendZeros(10).Build();
        Assert.That(() => new VirtualFileBuilder().AppendSlice(inner, 5, 6), Throws.InstanceOf<ArgumentOutOfRangeException>());
    }

    [Test]
    public void AppendPadding_PadsToAlignmentWithZeros()
    {
        using var file = new VirtualFileBuilder().AppendBytes(new byte[] { 7, 7, 7 }).AppendPadding(8).AppendBytes(new byte[] { 5 }).Build();
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        Assert.That(bytes, Is.EqualTo(new byte[] { 7, 7, 7, 0, 0, 0, 0, 0, 5 }));
    }

    [Test]
    public void Build_EmptyBuilder_GivesEmptyFile()
    {
        using var file = new VirtualFileBuilder().Build();
        Assert.That(file.Length, Is.Zero);
        Assert.That(file.Read(0, new byte[4]), Is.Zero);
    }
}
