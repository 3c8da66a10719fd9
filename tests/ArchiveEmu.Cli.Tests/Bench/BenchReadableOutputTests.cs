using System.Text.Json;
using System.Text.RegularExpressions;
using ArchiveEmu.Cli.Bench;
using ArchiveEmu.Cli.Commands;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary>
/// What a newcomer reads in <c>archiveemu bench</c> (issue 18): a verdict computed from the runs, a legend behind
/// <c>--explain</c>, <c>--brief</c>, and the rows that look contradictory labelled as what they are.
/// The bench runs three times for the whole fixture (default, --explain, --brief) to stay fast on 2 cores.
/// </summary>
public sealed class BenchReadableOutputTests
{
    private static readonly string[] ReadPaths = ["solid", "emulated", "emulated-kept", "merged", "merged-kept", "merged-lz4"];
    private TempDirectory _dir = null!;
    private readonly Dictionary<string, (string[] Lines, JsonElement Json)> _runs = new();

    [OneTimeSetUp]
    public void CreateFolder() => _dir = new TempDirectory("bench-readable");

    [OneTimeTearDown]
    public void DeleteFolder() => _dir.Dispose();

    // The same bench once per flag set, shared by the tests that read it.
    private (string[] Lines, JsonElement Json) Bench(params string[] flags)
    {
        string key = string.Join(' ', flags);
        if (_runs.TryGetValue(key, out var cached))
            return cached;
        var json = _dir[$"bench{_runs.Count}.json"];
        var work = Directory.CreateDirectory(_dir[$"work{_runs.Count}"]).FullName;
        var result = CliRun.Run(["bench", .. flags, "--scale-down", "512", "--runs", "2", "--random-reads", "20", "--dir", work, "--json", json]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var run = (result.Out.TrimEnd('\n').Split('\n'), JsonDocument.Parse(File.ReadAllText(json)).RootElement.Clone());
        _runs[key] = run;
        return run;
    }

    private static string FirstWord(string line) => line.TrimStart().Split(' ')[0];

    private static double[] Runs(JsonElement path) => path.GetProperty("runs_ratio_to_solid").EnumerateArray().Select(e => e.GetDouble()).ToArray();

    private static JsonElement PathOf(JsonElement scenario, string name) =>
        scenario.GetProperty("paths").EnumerateArray().Single(p => p.GetProperty("path").GetString() == name);

    private static string Spread(double[] runs) => $"{runs.Min():F2}-{runs.Max():F2}";

    // Decided here from the runs as printed (two decimals), independently of the product: ranges that overlap are within noise.
    private static string ExpectedDecision(double[] emulatedRuns, double[] mergedRuns)
    {
        var emulated = emulatedRuns.Select(r => Math.Round(r, 2)).ToArray();
        var merged = mergedRuns.Select(r => Math.Round(r, 2)).ToArray();
        return merged.Min() <= emulated.Max() && emulated.Min() <= merged.Max() ? "within noise"
            : merged.Min() > emulated.Max() ? "yes" : "no";
    }

    [Test]
    public void Verdict_NumbersAndDecision_ComeFromTheMeasuredRuns()
    {
        var (lines, json) = Bench();
        int heading = Array.FindIndex(lines, l => l.StartsWith("verdict", StringComparison.Ordinal));
        Assert.That(heading, Is.GreaterThan(0), "a verdict heading");
        Assert.That(lines[heading], Does.Contain("warm").And.Contain("page cache").And.Contain("--cold"));
        var verdict = json.GetProperty("verdict");
        var jsonScenarios = verdict.GetProperty("scenarios").EnumerateArray().ToList();
        foreach (var (scenario, index) in json.GetProperty("scenarios").EnumerateArray().Select((s, i) => (s, i)))
        {
            string name = scenario.GetProperty("name").GetString()!;
            var emulated = PathOf(scenario, "emulated");
            var merged = PathOf(scenario, "merged");
            string line = lines.Skip(heading).Single(l => l.StartsWith($"  {name}: ", StringComparison.Ordinal));
            string decision = ExpectedDecision(Runs(emulated), Runs(merged));
            Assert.That(line, Does.Contain($"emulated reads at {emulated.GetProperty("ratio_to_solid").GetDouble():F2}x"));
            Assert.That(line, Does.Contain($"(runs {Spread(Runs(emulated))})"));
            Assert.That(line, Does.Contain($"merged at {merged.GetProperty("ratio_to_solid").GetDouble():F2}x ({Spread(Runs(merged))})"));
            Assert.That(line, Does.Contain($"merging helps: {decision}"));

            var v = jsonScenarios[index];
            Assert.That(v.GetProperty("name").GetString(), Is.EqualTo(name));
            Assert.That(v.GetProperty("emulated_ratio_to_solid").GetDouble(), Is.EqualTo(emulated.GetProperty("ratio_to_solid").GetDouble()));
            Assert.That(v.GetProperty("merged_ratio_to_solid").GetDouble(), Is.EqualTo(merged.GetProperty("ratio_to_solid").GetDouble()));
            Assert.That(v.GetProperty("merging_helps").GetString(), Is.EqualTo(decision));
        }
        var jsonLines = verdict.GetProperty("lines").EnumerateArray().Select(l => l.GetString()).ToList();
        Assert.That(jsonLines, Is.EqualTo(lines.Skip(heading).Take(jsonLines.Count)), "the JSON holds the printed verdict");
        Assert.That(json.GetProperty("machine").TryGetProperty("rotational", out _), Is.True, "existing fields stay");
    }

    [Test]
    public void Default_EndsWithOneHintNamingExplainAndBrief_AndHasNoLegend()
    {
        var (lines, _) = Bench();
        Assert.That(lines[^1], Does.Contain("--explain").And.Contain("--brief"));
        Assert.That(lines.Count(l => l.Contains("--explain", StringComparison.Ordinal)), Is.EqualTo(1));
        Assert.That(lines, Has.None.StartsWith("legend"));
    }

    [Test]
    public void Explain_NamesEveryColumnHeaderAndPathName_Once()
    {
        var (lines, json) = Bench("--explain");
        Assert.That(lines.Count(l => l.StartsWith("legend", StringComparison.Ordinal)), Is.EqualTo(1), "printed once, not per scenario");
        var terms = LegendTerms(lines);

        // A table's header is the line just before its first row (solid, or repack for the build paths); the tables come before the legend.
        var tables = lines.TakeWhile(l => !l.StartsWith("legend", StringComparison.Ordinal)).ToArray();
        var headers = tables.Where((l, i) => i + 1 < tables.Length && FirstWord(tables[i + 1]) is "solid" or "repack").ToList();
        Assert.That(headers, Has.Count.EqualTo(3 * 2), "measured, estimate and build tables in two scenarios");
        foreach (var header in headers)
            foreach (var column in Regex.Split(header.Replace("|", "  "), @"\s{2,}").Select(c => c.Trim()).Where(c => c.Length > 0))
                Assert.That(terms, Does.Contain(column), $"column '{column}' of '{header}' has a legend entry");

        var scenario = json.GetProperty("scenarios")[0];
        var names = scenario.GetProperty("paths").EnumerateArray().Concat(scenario.GetProperty("builds").EnumerateArray())
            .Select(p => p.GetProperty("path").GetString()!);
        Assert.That(terms, Is.SupersetOf(names.Append("stored")));
        Assert.That(lines[^1], Does.Not.Contain("--explain"), "no hint once explained");
    }

    // "  term / term   explanation" lines under the legend heading, up to the next blank line.
    private static List<string> LegendTerms(string[] lines) =>
        lines.SkipWhile(l => !l.StartsWith("legend", StringComparison.Ordinal)).Skip(1).TakeWhile(l => l.Length > 0)
            .SelectMany(l => Regex.Split(l.Trim(), @"\s{2,}")[0].Split(" / ")).ToList();

    [Test]
    public void Brief_PrintsOneLinePerReadPath_AndNoTables()
    {
        var (lines, json) = Bench("--brief");
        foreach (var name in ReadPaths)
            Assert.That(lines.Count(l => FirstWord(l) == name), Is.EqualTo(1), name);
        var emulatedLine = lines.Single(l => FirstWord(l) == "emulated");
        foreach (var scenario in json.GetProperty("scenarios").EnumerateArray())
        {
            var emulated = PathOf(scenario, "emulated");
            Assert.That(emulatedLine, Does.Contain($"{scenario.GetProperty("name").GetString()} {emulated.GetProperty("ratio_to_solid").GetDouble():F2}x ({Spread(Runs(emulated))})"));
            Assert.That(emulatedLine, Does.Contain($"4K {emulated.GetProperty("random_4k").GetProperty("ratio_to_solid").GetDouble():F2}x"));
            Assert.That(emulatedLine, Does.Contain($"entries {emulated.GetProperty("random_entries").GetProperty("ratio_to_solid").GetDouble():F2}x"));
        }
        Assert.That(lines.Count(l => l.Contains("repack", StringComparison.Ordinal)), Is.LessThanOrEqualTo(2), "the build paths in one line per scenario");
        Assert.That(lines, Has.None.Contains("estimate").And.None.Contains("|"), "no per-scenario tables");
        Assert.That(lines, Has.Some.StartsWith("verdict"));
    }

    [Test]
    public void Default_EstimateRowsSayEstimate_MeasuredHeaderSaysMeasured_BuildSaysOneTime()
    {
        var (lines, json) = Bench();
        var pathRows = lines.Select((l, i) => (l, i)).Where(x => ReadPaths.Contains(FirstWord(x.l))).ToList();
        var estimates = pathRows.Where(x => !x.l.Contains('|')).ToList();
        Assert.That(estimates, Has.Count.EqualTo(6 * 2), "every path has an estimate row in both scenarios");
        Assert.That(estimates.Select(x => x.l), Has.All.Contain("estimate"));
        int firstMeasured = pathRows.First(x => x.l.Contains('|')).i;
        Assert.That(lines[firstMeasured - 1], Does.Contain("measured"));
        Assert.That(lines, Has.Some.Contains("not CPU work").And.Some.Contains("LZ4 decoding"), "why merged-lz4's estimate can pass 1.00x");

        int repack = Array.FindIndex(lines, l => FirstWord(l) == "repack");
        Assert.That(lines[repack - 2] + lines[repack - 1], Does.Contain("one-time").And.Contain("not per read"));

        var emulated = PathOf(json.GetProperty("scenarios")[0], "emulated");
        Assert.That(pathRows.First(x => FirstWord(x.l) == "emulated").l, Does.Contain(Spread(Runs(emulated))), "the xsolid spread over the runs");
    }

    [Test]
    public void MachineLine_SaysWhatTheKernelReports_NotAMeasuredKind()
    {
        var (lines, _) = Bench();
        Assert.That(lines[0], Does.StartWith("machine:").And.Contain("the kernel reports").And.Not.Contain("rotational storage"));
    }

    [Test]
    public void Usage_ListsTheNewFlags()
    {
        Assert.That(new BenchCommand().Usage, Does.Contain("[--explain]").And.Contain("[--brief]"));
    }
}
