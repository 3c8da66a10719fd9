using ArchiveEmu.Fuzz;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Issue 48: a seeded random pass of 10,000 inputs through each reader of Reloaded-II's files and of the CLI's profiles, the targets
/// afl++ fuzzes (<see cref="FuzzTargets"/>: modconfig, reloadedsetup, profile), started from their seeds (every encoding, BOM,
/// Latin-1, deep nesting, nulls) and mutated by <see cref="JsonMutator"/>. Never an exception other than the documented ones: the
/// target lets those pass and throws for anything else. Every case is reproducible from (target, case number).
/// </summary>
public sealed class ReloadedAndProfileFuzzTests
{
    private const int Cases = 10_000;

    [TestCase("modconfig")]
    [TestCase("reloadedsetup")]
    [TestCase("profile")]
    public void TenThousandMutants_AreReadOrRefusedWithTheDocumentedError(string target)
    {
        using var scratch = new TempDirectory("fuzz-" + target);
        var seeds = FuzzTargets.Seeds(target, scratch.Path);
        var findings = new List<string>();
        for (int i = 0; i < Cases; i++)
        {
            var (seedName, seed) = seeds[i % seeds.Count];
            var (kind, bytes) = JsonMutator.Mutate(seed, FormatFuzzTests.CaseSeed(target, i));
            if (target == "reloadedsetup" && seed.Length > 0 && bytes.Length > 0)
                bytes[0] = seed[0]; // the first byte picks the file: keep the seed's, so every file gets its share
            try
            {
                FuzzTargets.Run(target, bytes, scratch.Path);
            }
            catch (Exception e)
            {
                findings.Add($"case {i} ({kind} of {seedName}): {e.GetType().Name}: {e.Message}");
            }
        }
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
    }
}
