using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Mutation fuzzing of every format's reader and builder (issue 7): no crash, no hang, bounded memory, and a
/// clear error naming the file; and for a mutant the product accepts, what it built is re-read by an independent reader
/// and compared, entry by entry, with what that reader sees in the mutant (<see cref="IndependentCheck"/>). A short run
/// always (<see cref="DefaultCases"/> mutants per format); set ARCHIVEEMU_FUZZ_CASES for a long one. Every case is
/// reproducible from (format, case number).
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
        var builtCases = new List<(string Case, string SeedName, BuiltMutant Built, string[] Paths)>();
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
            {
                accepted++;
                var built = outcome.Built!;
                builtCases.Add(($"case {i} ({kind} of {seedName})", seedName, built,
                    [path, dir.Write($"case{i}.unchanged.{formatName}", built.Unchanged), dir.Write($"case{i}.patched.{formatName}", built.Patched)]));
                continue; // kept for the independent reader
            }
            else
                refused++;
            File.Delete(path);
        }
        var (compared, entries) = CompareWithTheIndependentReader(formatName, builtCases, findings);
        TestContext.Out.WriteLine($"fuzz {formatName}: {Cases} cases, {accepted} read and built ({compared} of them read by the independent reader too, " +
                                  $"{entries} entries compared in both builds), {refused} refused with a clear error, {findings.Count} findings");
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
        // A run whose mutants the independent reader never read compared nothing: that is no check at all.
        Assert.That(compared, Is.GreaterThan(0), $"the independent reader read no mutant of {formatName}");
        Assert.That(entries, Is.GreaterThan(0), $"no entry of a {formatName} mutant was compared");
    }

    // All of a run's files in one call per format (one Python start-up for hundreds of files); returns how many mutants
    // the reader could read, their builds compared.
    private static (int Mutants, int Entries) CompareWithTheIndependentReader(string formatName,
        List<(string Case, string SeedName, BuiltMutant Built, string[] Paths)> cases, List<string> findings)
    {
        if (formatName == "acb")
            return AcbFuzzCheck.Compare(cases.Select(c => (c.Case, c.Built, c.Paths)).ToList(), findings);
        int readable = 0, entries = 0;
        foreach (var group in cases.GroupBy(c => formatName == "pak" ? PakVariant(c.SeedName) : ""))
        {
            var list = group.ToList();
            var views = IndependentCheck.ReadMany(formatName, group.Key, list.SelectMany(c => c.Paths).ToArray());
            for (int k = 0; k < list.Count; k++)
            {
                if (views[3 * k] is { } mutant)
                    (readable, entries) = (readable + 1, entries + mutant.Entries.Values.Count(sha => sha is not null));
                findings.AddRange(IndependentCheck.Compare(formatName, list[k].Built, views[3 * k], views[3 * k + 1], views[3 * k + 2])
                    .Select(problem => $"{list[k].Case}: {problem}"));
            }
        }
        return (readable, entries);
    }

    private static string PakVariant(string seedName) => PakTestLayout.All.Single(l => $"writer {l}" == seedName).Variant;

    [Test]
    public void TheUnmutatedSeeds_AreAllReadAndBuilt()
    {
        using var dir = new TempDirectory("fuzz-seeds");
        foreach (var formatName in Formats)
        {
            foreach (var (name, bytes) in FuzzSeeds.For(formatName))
            {
                var outcome = FuzzCase.Run(ArchiveFormats.ByName(formatName)!, dir.Write($"seed.{formatName}", bytes));
                Assert.That(outcome with { Built = null }, Is.EqualTo(new FuzzOutcome(true, null, null)), $"{formatName} seed {name}: a fuzzer whose seeds fail tests nothing");
            }
        }
    }

    // Stable across runs and machines (HashCode.Combine is seeded per process, so it would not replay a case).
    internal static int CaseSeed(string format, int i) =>
        unchecked((int)System.IO.Hashing.XxHash32.HashToUInt32(System.Text.Encoding.UTF8.GetBytes($"{format}/{i}")));
}
