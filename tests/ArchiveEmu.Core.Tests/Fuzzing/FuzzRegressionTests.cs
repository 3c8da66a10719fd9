using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>One test per fuzzer finding, replaying the exact mutant (format, case number) that found it.</summary>
public sealed class FuzzRegressionTests
{
    // Found by the tar run: a GNU tar cut inside the last member's padding. The reader accepts it (the data is all
    // there); the patched build then asked for the padded record past the end and got an ArgumentOutOfRangeException
    // without the file name (found the day archives inside other files came in, with the bounds check in
    // ArchiveIndex.AppendOriginal). Replayed here with the cut made explicitly.
    [Test]
    public void Tar_TruncatedInsideTheLastPadding_PatchedBuild_IsAFormatErrorNamingTheFile()
    {
        var gnu = FuzzSeeds.For("tar").Single(s => s.Name.EndsWith("gnu", StringComparison.Ordinal)).Bytes;
        using var dir = new TempDirectory("fuzz-regression");
        var path = dir.Write("cut.tar", gnu[..4552]);
        var index = ArchiveFormats.ByName("tar")!.ReadIndex(path);
        long lastDataEnd = index.Entries[^1].Offset + index.Entries[^1].Size;
        Assert.That(lastDataEnd, Is.LessThanOrEqualTo(4552).And.GreaterThan(4552 - 512), "the cut is inside the last member's padding");

        var outcome = FuzzCase.Run(ArchiveFormats.ByName("tar")!, path);

        Assert.That(outcome.Finding, Is.Null);
        Assert.That(outcome.Error, Does.StartWith(path + ": bytes [").And.Contain("past the end"));
    }

    // Found by a 5,000-case cpk run (case 4069, a bit flip in the masked TOC of the "named, masked, ETOC, align 0x20" seed):
    // the TOC's DirName column became a float column; the reader read no names from it and the patched build wrote a
    // string into it, a FormatException naming nothing. The reader now refuses name columns that hold no strings.
    [Test]
    public void Cpk_TocNameColumnOfAnotherType_IsAFormatErrorNamingTheFile()
    {
        var seeds = FuzzSeeds.For("cpk");
        const int Case = 4069;
        var (seedName, seed) = seeds[Case % seeds.Count];
        var (_, bytes) = Mutator.Mutate(seed, FormatFuzzTests.CaseSeed("cpk", Case));
        using var dir = new TempDirectory("fuzz-regression");
        var path = dir.Write("case4069.cpk", bytes);
        Assert.That(seedName, Does.Contain("masked"), "the mutant this test replays");

        var outcome = FuzzCase.Run(ArchiveFormats.ByName("cpk")!, path);

        Assert.That(outcome.Finding, Is.Null);
        Assert.That(outcome.Error, Does.StartWith(path).And.Contain("column holds").And.Contain("not strings"));
    }

    // Found by an 8,000-case cpk run (case 6533, stacked mutations of the masked seed): a TocSize of 0x10F0 for a TOC packet
    // of 0xF0 bytes. The builder kept the 0x1000 difference as "padding" and wrote a TocSize past the end of the patched
    // file, which the independent reader rejected. Now a size field above its packet is kept as a convention (padded up to
    // what follows), never as a byte count.
    [Test]
    public void Cpk_TocSizeFarPastItsPacket_PatchedBuild_IsReadByTheIndependentReader()
    {
        var seeds = FuzzSeeds.For("cpk");
        const int Case = 6533;
        var (_, seed) = seeds[Case % seeds.Count];
        var (_, bytes) = Mutator.Mutate(seed, FormatFuzzTests.CaseSeed("cpk", Case));
        using var dir = new TempDirectory("fuzz-regression");
        var path = dir.Write("case6533.cpk", bytes);
        Assert.That(ArchiveEmu.TestSupport.Cri.CpkIndependentReader.Read(path).Header["TocSize"].GetInt64(), Is.EqualTo(0x10F0), "the mutant this test replays");

        var outcome = FuzzCase.Run(ArchiveFormats.ByName("cpk")!, path);

        Assert.That(outcome.Finding, Is.Null);
        var patched = ArchiveEmu.TestSupport.Cri.CpkIndependentReader.Read(dir.Write("patched.cpk", outcome.Built!.Patched));
        Assert.That(patched.Entries.Select(e => e.Path), Is.EqualTo(new[] { "d/a.bin", "d/b.bin", "fuzz_added.bin" }));
        Assert.That(patched.Header["TocSize"].GetInt64(), Is.LessThan(0x200));
    }
}
