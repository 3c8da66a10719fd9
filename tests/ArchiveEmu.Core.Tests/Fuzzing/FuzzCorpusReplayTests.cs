using ArchiveEmu.Fuzz;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Replays the corpus afl++ kept and minimised (tests/fuzz-corpus/&lt;target&gt;, written by tests/ArchiveEmu.Fuzz/fuzz.sh) through
/// the same targets it fuzzed (<see cref="FuzzTargets"/>): every input is read or refused with the error its code documents
/// for damage, and a format's inputs pass FormatFuzzTests' judge (no hang, bounded memory, a clear error naming the file).
/// </summary>
public sealed class FuzzCorpusReplayTests
{
    private static IEnumerable<string> Targets => FuzzTargets.All;

    [TestCaseSource(nameof(Targets))]
    public void EveryCorpusInput_IsReadOrRefusedWithTheDocumentedError(string target)
    {
        var folder = Path.Combine(RepositoryFiles.Root, "tests", "fuzz-corpus", target);
        Assert.That(Directory.Exists(folder), Is.True, $"no corpus for {target} at {folder} (tests/ArchiveEmu.Fuzz/fuzz.sh {target} writes it)");
        var inputs = Directory.GetFiles(folder);
        Assert.That(inputs, Is.Not.Empty, $"the corpus of {target} is empty");
        using var scratch = new TempDirectory("fuzz-replay-" + target);
        var findings = new List<string>();
        foreach (var input in inputs.Order(StringComparer.Ordinal))
        {
            try
            {
                FuzzTargets.Run(target, File.ReadAllBytes(input), scratch.Path);
            }
            catch (Exception e)
            {
                findings.Add($"{Path.GetFileName(input)}: {e.GetType().Name}: {e.Message}");
            }
        }
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
    }

    [Test]
    public void TheTargets_AreEveryFormatThenCrilaylaUtfTheCacheParsersAndTheReloadedAndProfileReaders() =>
        Assert.That(FuzzTargets.All, Is.EqualTo(new[]
        {
            "acb", "afs", "awb", "cpk", "img", "pak", "spd", "spr", "tar", "txd", "zip",
            "crilayla", "utf", "cacheindex", "layout", "chunktable", "verified", "modconfig", "reloadedsetup", "profile",
        }));
}
