using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>
/// A checked read hands its check the segments it found, exactly those of the bytes read, on each of the read's paths (small
/// in one segment, big in one segment, across segments), and hands out no bytes when the check fails.
/// </summary>
public sealed class ReadCheckedTests
{
    private const int Header = 100, Big = 200 * 1024, Padding = 50, Tail = 1000; // segments 0 (memory), 1 (file), 2 (zeros), 3 (file)
    private const int BigStart = Header, TailStart = Header + Big + Padding, Length = TailStart + Tail;

    private TempDirectory _folder = null!;
    private VirtualFile _file = null!;
    private byte[] _expected = [];

    [SetUp]
    public void Build()
    {
        _folder = new TempDirectory("read-checked");
        var header = TestData.Random(1, Header);
        var big = TestData.Random(2, Big);
        var tail = TestData.Random(3, Tail);
        _file = new VirtualFileBuilder(new FileHandlePool(4))
            .AppendBytes(header)
            .AppendFile(_folder.Write("big.bin", big), 0, Big)
            .AppendZeros(Padding)
            .AppendFile(_folder.Write("tail.bin", tail), 0, Tail)
            .Build();
        _expected = [.. header, .. big, .. new byte[Padding], .. tail];
    }

    [TearDown]
    public void Delete()
    {
        _file.Dispose();
        _folder.Dispose();
    }

    [TestCase(10, 50, 0, 0)] // A small read inside the header: its segment
    [TestCase(BigStart + 5, 70_000, 1, 1)] // A big read inside one file slice: its segment
    [TestCase(Header - 10, 100, 0, 1)] // A read across the header's end: both segments
    [TestCase(TailStart - Padding - 10, 100, 1, 3)] // A read across the padding: the slices on both sides and the padding
    [TestCase(Length - 10, 100, 3, 3)] // A read cut short at the end: the last segment
    [TestCase(0, Length, 0, 3)] // The whole file: every segment
    public void ReadChecked_HandsTheCheckTheSegmentsOfTheBytesRead_AndReadsThem(int offset, int count, int first, int last)
    {
        Assert.That(_file.Segments.Length, Is.EqualTo(4), "the layout the cases name");
        var check = new RecordingCheck();
        var destination = new byte[count];

        int read = _file.ReadChecked(offset, destination, new ReadRun(), check);

        int expected = Math.Min(count, Length - offset);
        Assert.That(read, Is.EqualTo(expected));
        Assert.That(destination[..read], Is.EqualTo(_expected[offset..(offset + read)]));
        Assert.That(check.Calls, Is.EqualTo(new[] { (first, last) }));
    }

    [Test]
    public void ReadChecked_AtTheEnd_ReadsNothing_AndAsksNoCheck()
    {
        var check = new RecordingCheck();
        Assert.That(_file.ReadChecked(Length, new byte[10], new ReadRun(), check), Is.Zero);
        Assert.That(check.Calls, Is.Empty);
    }

    [TestCase(10, 50)]
    [TestCase(BigStart + 5, 70_000)]
    [TestCase(Header - 10, 100)]
    public void ReadChecked_WhenTheCheckFails_FailsTheRead(int offset, int count)
    {
        var failing = new FailingCheck();
        Assert.That(() => _file.ReadChecked(offset, new byte[count], new ReadRun(), failing),
            Throws.InstanceOf<IOException>().With.Message.EqualTo(FailingCheck.Message));
        Assert.That(_file.Read(offset, new byte[count]), Is.EqualTo(count), "the same read unchecked");
    }

    private sealed class RecordingCheck : IReadCheck
    {
        public List<(int First, int Last)> Calls { get; } = [];

        public void AfterRead(int first, int last) => Calls.Add((first, last));
    }

    private sealed class FailingCheck : IReadCheck
    {
        public const string Message = "a source changed";

        public void AfterRead(int first, int last) => throw new IOException(Message);
    }
}
