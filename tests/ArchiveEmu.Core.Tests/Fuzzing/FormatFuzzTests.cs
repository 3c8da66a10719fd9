using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Mutation fuzzing of every format's reader and builder (issue 7): no crash, no hang, bounded memory, and a
/// clear error naming the file. A short run always (<see cref="DefaultCases"/> mutants per format); set
/// ARCHIVEEMU_FUZZ_CASES for a long one. Every case is reproducible from (format, case number).
/// </summary>
public sealed class FormatFuzzTests
{
    private const int DefaultCases = 300;

    private static int Cases => int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_FUZZ_CASES"), out int n) && n > 0 ? n : DefaultCases;

    private static IEnumerable<string> Formats => FuzzSeeds.Formats;

    [TestCaseSource(nameof(Formats))]
    public void Mutants_AreReadOrRefusedWithAClearError_NeverCrashHangOrBalloon(string formatName)
    {
        var format = ArchiveFormats.ByName(formatName)!;
        var seeds = FuzzSeeds.For(formatName);
        using var dir = new TempDirectory("fuzz-" + formatName);
        var findings = new List<string>();
        int accepted = 0, refused = 0;
        for (int i = 0; i < Cases; i++)
        {
            var (seedName, seed) = seeds[i % seeds.Count];
            var (kind, bytes) = Mutator.Mutate(seed, CaseSeed(formatName, i));
            var path = dir.Write($"case{i}.{formatName}", bytes);
            var outcome = FuzzCase.Run(format, path);
            if (outcome.Finding is not null)
                findings.Add($"case {i} ({kind} of {seedName}): {outcome.Finding}");
            else if (outcome.Accepted)
                accepted++;
            else
                refused++;
            File.Delete(path);
        }
        TestContext.Out.WriteLine($"fuzz {formatName}: {Cases} cases, {accepted} read and built, {refused} refused with a clear error, {findings.Count} findings");
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
    }

    [Test]
    public void TheUnmutatedSeeds_AreAllReadAndBuilt()
    {
        using var dir = new TempDirectory("fuzz-seeds");
        foreach (var formatName in Formats)
        {
            foreach (var (name, bytes) in FuzzSeeds.For(formatName))
            {
                var outcome = FuzzCase.Run(ArchiveFormats.ByName(formatName)!, dir.Write($"seed.{formatName}", bytes));
                Assert.That(outcome, Is.EqualTo(new FuzzOutcome(true, null, null)), $"{formatName} seed {name}: a fuzzer whose seeds fail tests nothing");
            }
        }
    }

    internal static int CaseSeed(string format, int i) => HashCode.Combine(0, i) ^ format.Length * 7919 + i * 31 + format[0] * 1_000_003;
}
