using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>The fuzzer's judge can fail: a reader that crashes, hangs, balloons or gives a nameless error is a finding.</summary>
public sealed class FuzzCaseTests
{
    private TempDirectory _dir = null!;
    private string _file = "";

    [SetUp]
    public void WriteFile()
    {
        _dir = new TempDirectory("fuzzcase");
        _file = _dir.Write("x.bin", [1, 2, 3, 4]);
    }

    [TearDown]
    public void Delete() => _dir.Dispose();

    [Test]
    public void ACrash_IsAFinding() =>
        Assert.That(FuzzCase.Run(new BrokenFormat(_ => throw new IndexOutOfRangeException("boom")), _file).Finding,
            Does.StartWith("IndexOutOfRangeException: boom"));

    [Test]
    public void AnErrorThatDoesNotNameTheFile_IsAFinding() =>
        Assert.That(FuzzCase.Run(new BrokenFormat(_ => throw new IOException("bad header")), _file).Finding,
            Does.StartWith("IOException: bad header"));

    [Test]
    public void AnErrorNamingTheFile_IsARefusal_NotAFinding() =>
        Assert.That(FuzzCase.Run(new BrokenFormat(p => throw new ArchiveFormatException(p, 4, "bad header")), _file),
            Is.EqualTo(new FuzzOutcome(false, $"{_file}: bad header (at offset 0x4)", null)));

    [Test]
    public void AHang_IsAFinding() =>
        Assert.That(FuzzCase.Run(new BrokenFormat(_ => { Thread.Sleep(3000); return null!; }), _file, TimeSpan.FromMilliseconds(200)).Finding,
            Does.StartWith("hang"));

    [Test]
    public void AnAllocationSizedByTheHeader_IsAFinding() =>
        Assert.That(FuzzCase.Run(new BrokenFormat(p => throw new ArchiveFormatException(p, 0, $"table of {new byte[200_000_000].Length} bytes")), _file).Finding,
            Does.StartWith("allocated"));

    private sealed class BrokenFormat(Func<string, ArchiveIndex> read) : IArchiveFormat
    {
        public string Name => "broken";
        public string DisplayName => "broken";
        public EntryAddressing Addressing => EntryAddressing.ByIndex;
        public StringComparer NameComparer => StringComparer.Ordinal;
        public bool Detect(ReadOnlySpan<byte> head, long length) => false;
        public ArchiveIndex ReadIndex(string path) => read(path);
        public ArchiveIndex ReadIndex(ArchiveSource source) => read(source.Path);
        public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) => throw new NotSupportedException();
    }
}
