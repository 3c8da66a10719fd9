using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>The independent check can fail: a build that lost the replacement, or changed an entry it should have kept, is a finding.</summary>
public sealed class IndependentCheckTests
{
    private static IEnumerable<string> Formats => FuzzSeeds.Formats;

    [TestCaseSource(nameof(Formats))]
    public void ASeedsBuilds_PassTheCheck_AndAWrongBuildDoesNot(string formatName)
    {
        var (seedName, seed) = FuzzSeeds.For(formatName)[0];
        string variant = formatName == "pak" ? PakTestLayout.All.Single(l => $"writer {l}" == seedName).Variant : "";
        using var dir = new TempDirectory("independent-check");
        var path = dir.Write($"seed.{formatName}", seed);
        var built = FuzzCase.Run(ArchiveFormats.ByName(formatName)!, path).Built!;
        var views = IndependentCheck.ReadMany(formatName, variant,
            [path, dir.Write($"unchanged.{formatName}", built.Unchanged), dir.Write($"patched.{formatName}", built.Patched)]);
        Assert.That(views, Has.All.Not.Null, "the reader reads the seed and both builds");
        Assert.That(views[0]!.Entries.Values, Has.Some.Not.Null);

        Assert.That(IndependentCheck.Compare(formatName, built, views[0], views[1], views[2]), Is.Empty);
        Assert.That(IndependentCheck.Compare(formatName, built, views[0], views[2], views[2]),
            Has.Some.StartsWith("unchanged build: entry").And.Some.Contains("is not in the mutant"), "the patched build passed off as the unchanged one");
        Assert.That(IndependentCheck.Compare(formatName, built, views[0], views[1], views[1]),
            Has.Some.StartsWith("patched build: entry").And.Some.Contains("missing or unreadable"), "the unchanged build passed off as the patched one");
        Assert.That(IndependentCheck.Compare(formatName, built, views[0], views[1], null),
            Is.EqualTo(new[] { "the independent reader reads the mutant but rejects the patched build" }));
        Assert.That(IndependentCheck.Compare(formatName, built, null, null, null), Is.Empty, "a mutant the reader rejects is not compared");
    }
}
