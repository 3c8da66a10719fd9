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
}
