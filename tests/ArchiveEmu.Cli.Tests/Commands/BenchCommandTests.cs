using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary><c>archiveemu bench</c> on scaled-down scenarios: the JSON contract, the bench's own checks, clean-up and bad input.</summary>
public sealed class BenchCommandTests
{
    private static readonly string[] PathNames = ["solid", "emulated", "emulated-kept", "merged", "merged-kept", "merged-lz4"];
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("bench");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private (CliResult Result, JsonElement Json) RunBench(params string[] extra)
    {
        var json = _dir["bench.json"];
        var work = Directory.CreateDirectory(_dir["work"]).FullName;
        var result = CliRun.Run(["bench", .. extra, "--scale-down", "512", "--runs", "2", "--random-reads", "20", "--dir", work, "--json", json]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(Directory.EnumerateFileSystemEntries(work), Is.Empty, "the generated data is removed");
        return (result, JsonDocument.Parse(File.ReadAllText(json)).RootElement);
    }

    [Test]
    public void Bench_DefaultScenarios_WritesTheJsonContract()
    {
        var (result, json) = RunBench();

        Assert.That(json.GetProperty("machine").GetProperty("cpu_count").GetInt32(), Is.EqualTo(Environment.ProcessorCount));
        var scenarios = json.GetProperty("scenarios").EnumerateArray().ToList();
        Assert.That(scenarios.Select(s => s.GetProperty("name").GetString()), Is.EqualTo(new[] { "texture-archive", "512x128K" }));
        foreach (var scenario in scenarios)
        {
            Assert.That(scenario.GetProperty("cold").GetBoolean(), Is.False);
            var paths = scenario.GetProperty("paths").EnumerateArray().ToList();
            Assert.That(paths.Select(p => p.GetProperty("path").GetString()), Is.EqualTo(PathNames));
            foreach (var p in paths)
            {
                var mbps = p.GetProperty("mbps");
                Assert.That(mbps.GetProperty("min").GetDouble(), Is.GreaterThan(0));
                Assert.That(mbps.GetProperty("median").GetDouble(), Is.InRange(mbps.GetProperty("min").GetDouble(), mbps.GetProperty("max").GetDouble()));
                bool kept = p.GetProperty("path").GetString()!.EndsWith("-kept", StringComparison.Ordinal);
                Assert.That(p.GetProperty("opens").GetInt64(), kept ? Is.Zero : Is.GreaterThanOrEqualTo(1), "a kept file was opened before the timed runs");
                Assert.That(p.GetProperty("reads").GetInt32(), Is.GreaterThanOrEqualTo(1));
                Assert.That(p.GetProperty("random_4k").ValueKind, Is.EqualTo(JsonValueKind.Object), "every path makes random reads");
                Assert.That(p.GetProperty("random_entries").GetProperty("runs_mbps").GetArrayLength(), Is.GreaterThan(0), "and loads random entries");
                Assert.That(p.GetProperty("device_estimate").ValueKind, Is.EqualTo(JsonValueKind.Object), "every path has a trace to price");
                Assert.That(p.TryGetProperty("parallel_readers", out _), Is.False, "every path is read by one thread");
            }
        }
        Assert.That(result.Out, Does.Contain("texture-archive").And.Contain("merged-lz4").And.Contain("estimate"));
    }

    [Test]
    public void Bench_Ratios_AreEachRunsMbpsOverSolidsInTheSameRun()
    {
        var (_, json) = RunBench("texture-archive");
        var paths = json.GetProperty("scenarios")[0].GetProperty("paths").EnumerateArray().ToList();
        var solidRuns = Runs(paths[0], "runs_mbps");
        foreach (var p in paths)
        {
            var runs = Runs(p, "runs_mbps");
            var expected = runs.Zip(solidRuns, (r, s) => r / s).ToArray();
            Assert.That(Runs(p, "runs_ratio_to_solid"), Is.EqualTo(expected).Within(1e-9));
            Assert.That(p.GetProperty("ratio_to_solid").GetDouble(), Is.EqualTo(expected.Average()).Within(1e-9), "the median of two runs is their mean");
            Assert.That(p.GetProperty("mbps").GetProperty("median").GetDouble(), Is.EqualTo(runs.Average()).Within(1e-6));
            var entries = p.GetProperty("random_entries");
            var expectedEntries = Runs(entries, "runs_mbps").Zip(Runs(paths[0].GetProperty("random_entries"), "runs_mbps"), (r, s) => r / s).ToArray();
            Assert.That(Runs(entries, "runs_ratio_to_solid"), Is.EqualTo(expectedEntries).Within(1e-9), "the random entries' ratios too");
        }
        Assert.That(paths[0].GetProperty("ratio_to_solid").GetDouble(), Is.EqualTo(1.0));
    }

    [Test]
    public void Bench_Counts_MatchTheArchiveAndTheKernel()
    {
        LinuxOnly.Require("bench --cold and the kernel's read counters (posix_fadvise, /proc/thread-self/io)");
        var (_, json) = RunBench("texture-archive", "--cold");
        var scenario = json.GetProperty("scenarios")[0];
        Assert.That(scenario.GetProperty("cold").GetBoolean(), Is.True);
        long archiveBytes = scenario.GetProperty("archive_bytes").GetInt64();
        var byName = scenario.GetProperty("paths").EnumerateArray().ToDictionary(p => p.GetProperty("path").GetString()!);

        Assert.That(byName["solid"].GetProperty("opens").GetInt64(), Is.EqualTo(1));
        Assert.That(byName["solid"].GetProperty("bytes_read").GetInt64(), Is.EqualTo(archiveBytes));
        // 16 injected textures and the original: every one is opened; the rebuilt header comes from memory
        Assert.That(byName["emulated"].GetProperty("opens").GetInt64(), Is.EqualTo(17));
        Assert.That(byName["emulated"].GetProperty("bytes_read").GetInt64(), Is.InRange(archiveBytes - 64 * 1024, archiveBytes - 1));
        Assert.That(byName["merged"].GetProperty("opens").GetInt64(), Is.EqualTo(1));
        Assert.That(byName["merged"].GetProperty("bytes_read").GetInt64(), Is.EqualTo(archiveBytes), "raw chunks: every byte from the pack");
        foreach (var name in new[] { "solid", "emulated" }) // the trace derived from the segment map is what the kernel counted
        {
            Assert.That(byName[name].GetProperty("read_syscalls").GetInt64(), Is.EqualTo(byName[name].GetProperty("reads").GetInt64()), name);
            Assert.That(byName[name].GetProperty("read_syscall_bytes").GetInt64(), Is.EqualTo(byName[name].GetProperty("bytes_read").GetInt64()), name);
        }
    }

    [Test]
    public void Bench_Lz4_ReportsTextureLikeCompression()
    {
        var (_, json) = RunBench("texture-archive");
        var scenario = json.GetProperty("scenarios")[0];
        var lz4 = scenario.GetProperty("paths").EnumerateArray().Single(p => p.GetProperty("path").GetString() == "merged-lz4");
        Assert.That(lz4.GetProperty("path").GetString(), Is.EqualTo("merged-lz4"));
        double ratio = lz4.GetProperty("compression_ratio").GetDouble();
        Assert.That(ratio, Is.InRange(0.4, 0.97), "block-compressed textures shrink a little under LZ4: not like zeros, not like noise");
        Assert.That(lz4.GetProperty("bytes_read").GetInt64(), Is.LessThan(scenario.GetProperty("archive_bytes").GetInt64()));
        Assert.That(scenario.GetProperty("lz4").GetProperty("ratio").GetDouble(), Is.EqualTo(ratio).Within(1e-9));
        Assert.That(scenario.GetProperty("lz4").GetProperty("decode_mbps").GetProperty("median").GetDouble(), Is.GreaterThan(0));
        var builds = scenario.GetProperty("builds").EnumerateArray().Select(b => b.GetProperty("path").GetString());
        Assert.That(builds, Is.EqualTo(new[] { "repack", "build", "build --merge", "build --merge lz4" }));
    }

    [TestCase("nope", 2, "unknown scenario 'nope'")]
    [TestCase("--runs=0", 2, "--runs takes a whole number")]
    [TestCase("--runs=many", 2, "--runs takes a whole number")]
    [TestCase("--drop-caches", 2, "--drop-caches goes with --cold")]
    public void Bench_BadArguments_AreUsageErrors(string argument, int exitCode, string message)
    {
        var result = CliRun.Run("bench", argument, "--dir", _dir.Path);
        Assert.That(result.ExitCode, Is.EqualTo(exitCode), result.ToString());
        Assert.That(result.Error, Does.Contain(message));
        Assert.That(Directory.EnumerateFileSystemEntries(_dir.Path), Is.Empty, "nothing generated");
    }

    [Test]
    public void Bench_MissingOrUnwritableDir_IsOneLineAndExit1()
    {
        var missing = CliRun.Run("bench", "--dir", _dir["missing"]);
        Assert.That(missing.ExitCode, Is.EqualTo(1), missing.ToString());
        Assert.That(missing.Error.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(missing.Error, Does.Contain("no such folder"));

        var notAFolder = _dir.Write("file", [1]);
        var unwritable = CliRun.Run("bench", "--dir", Path.Combine(notAFolder, "sub"));
        Assert.That(unwritable.ExitCode, Is.EqualTo(1), unwritable.ToString());
        Assert.That(unwritable.Error.Trim().Split('\n'), Has.Length.EqualTo(1));
    }

    private static double[] Runs(JsonElement path, string name) => path.GetProperty(name).EnumerateArray().Select(e => e.GetDouble()).ToArray();
}
