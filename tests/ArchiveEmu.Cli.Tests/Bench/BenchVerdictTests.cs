using ArchiveEmu.Cli.Bench;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary>The verdict on hand-made measurements: "merging helps" decided from the runs' ranges, and the lines that say so.</summary>
public sealed class BenchVerdictTests
{
    [TestCase(new[] { 0.90, 1.05 }, new[] { 1.00, 1.20 }, "within noise")]
    [TestCase(new[] { 0.90, 1.05 }, new[] { 0.70, 0.90 }, "within noise")]
    [TestCase(new[] { 0.50, 0.55, 0.52 }, new[] { 0.70, 0.80, 0.75 }, "yes")]
    [TestCase(new[] { 0.95, 1.05, 1.00 }, new[] { 0.70, 0.80, 0.75 }, "no")]
    [TestCase(new[] { 0.02, 0.1289 }, new[] { 0.1325, 1.6 }, "within noise")] // printed 0.02-0.13 and 0.13-1.60: they touch
    [TestCase(new[] { 0.50 }, new[] { 0.80 }, "cannot tell from one run")]
    public void Decide_ComparesTheRangesOfRuns(double[] emulated, double[] merged, string expected)
    {
        Assert.That(MergeBenefits.Decide(emulated, merged).Words(), Is.EqualTo(expected));
    }

    [Test]
    public void Lines_OfAHandMadeScenario_PrintItsMediansRangesAndDecision()
    {
        var scenario = Scenario(emulated: [0.50, 0.60, 0.55], merged: [0.80, 0.90, 0.85], buildMergeMs: [100, 120, 110]);
        var lines = new BenchVerdict(Options(cold: false), [scenario]).Lines();

        Assert.That(lines[0], Does.StartWith("verdict, warm").And.Contain("not the disk").And.Contain("--cold"));
        Assert.That(lines[1], Does.StartWith("  texture-archive: ")
            .And.Contain("emulated reads at 0.55x the original's speed (runs 0.50-0.60)")
            .And.Contain("merged at 0.85x (0.80-0.90)")
            .And.Contain("merging helps: yes")
            .And.Contain("4K random: emulated 0.40x, merged 0.20x"));
        Assert.That(lines[^1], Does.Contain("paid once").And.Contain("110 ms (texture-archive)"));
    }

    [Test]
    public void Lines_Cold_SayTheDiskIsIncluded()
    {
        var scenario = Scenario(emulated: [0.90, 1.05], merged: [1.00, 1.20], buildMergeMs: [50, 50]);
        var lines = new BenchVerdict(Options(cold: true), [scenario]).Lines();
        Assert.That(lines[0], Does.StartWith("verdict, cold").And.Contain("disk"));
        Assert.That(lines[1], Does.Contain("merging helps: within noise"));
    }

    private static BenchOptions Options(bool cold) =>
        new(Runs: 3, Cold: cold, DropAllCaches: false, RandomReads: 20, BlockSize: 1 << 20, ScaleDown: 1);

    private static ScenarioResult Scenario(double[] emulated, double[] merged, double[] buildMergeMs)
    {
        var build = new BuildMeasurements("build --merge", "build + merged cache, raw, flushed");
        build.Ms.AddRange(buildMergeMs);
        return new ScenarioResult(BenchScenario.Find("texture-archive")!, 64 << 20, 17, Cold: false,
            [Path(ReadPath.Solid, [1, 1, 1], 1), Path("emulated", emulated, 0.40), Path("merged", merged, 0.20)],
            [build], new Lz4Figures(0.8, 1, new Samples(1000, 1000, 1000)), Seconds: 1);
    }

    private static PathMeasurements Path(string name, double[] wholeRatios, double randomRatio)
    {
        var path = new PathMeasurements(new ReadPath(name, () => throw new NotSupportedException("not read: hand-made figures")));
        path.WholeRatioToSolid.AddRange(wholeRatios);
        path.RandomRatioToSolid.AddRange(wholeRatios.Select(_ => randomRatio));
        return path;
    }
}
