using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>The independent check can fail: a build that lost the replacement, or changed an entry it should have kept, is a finding.</summary>
public sealed class IndependentCheckTests
{
    private static IEnumerable<string> Formats => FuzzSeeds.Formats.Where(f => f != "acb"); // ACB's check is AcbFuzzCheck, tested below

    private static IEnumerable<string> AcbSeeds => FuzzSeeds.For("acb").Select(s => s.Name);

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

    [TestCaseSource(nameof(AcbSeeds))]
    public void AnAcbSeedsBuilds_PassTheAcbCheck_AndWrongBuildsDoNot(string seedName)
    {
        var seed = FuzzSeeds.For("acb").Single(s => s.Name == seedName).Bytes;
        using var dir = new TempDirectory("independent-check-acb");
        var path = dir.Write("seed.acb", seed);
        var built = FuzzCase.Run(ArchiveFormats.ByName("acb")!, path).Built!;
        var (unchanged, patched) = (dir.Write("unchanged.acb", built.Unchanged), dir.Write("patched.acb", built.Patched));

        // The four comparisons in one call: one Python start-up for the ACB reader, one for the AWB reader.
        var findings = new List<string>();
        var cases = new List<(string, BuiltMutant, string[])>
        {
            ("right", built, [path, unchanged, patched]),
            ("patched as unchanged", built, [path, patched, patched]),
            ("unchanged as patched", built, [path, unchanged, unchanged]),
            ("cut", built, [path, unchanged, dir.Write("cut.acb", built.Patched[..^1])]),
        };
        Assert.That(AcbFuzzCheck.Compare(cases, findings).Mutants, Is.EqualTo(4), "the reader reads the seed");

        Assert.That(findings.Where(f => f.StartsWith("right:", StringComparison.Ordinal)), Is.Empty);
        Assert.That(findings.Where(f => f.StartsWith("patched as unchanged:", StringComparison.Ordinal)), Is.Not.Empty);
        Assert.That(findings.Where(f => f.StartsWith("unchanged as patched:", StringComparison.Ordinal)), Is.Not.Empty);
        Assert.That(findings.Where(f => f.StartsWith("cut:", StringComparison.Ordinal)).Single(), Does.Contain("rejects a build"));
    }
}
