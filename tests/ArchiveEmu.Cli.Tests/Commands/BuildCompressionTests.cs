using System.Text.Json;
using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// <c>build --compress</c> (issue 20): auto is the default, and the report says the codec chosen and why, in text and
/// JSON. Which codec auto picks depends on this machine's disk, so the figures are checked for their shape; the
/// decision itself is tested on injected figures (Core's CompressionDecisionTests).
/// </summary>
public sealed class BuildCompressionTests
{
    private static readonly Regex AutoReason = new(
        @"^(cache device reads [\d,]+ MB/s, LZ4 decodes [\d,]+ MB/s at \d+% stored: (lz4|raw)|cache device speed not measured \(.+\): raw, the default when unmeasured)$");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-compress");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private CliResult Build(params string[] extra) => CliRun.Run([
        "build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--cache", _dir["cache"], "--merge", "always", .. extra]);

    private static string DeviceFigure(string reason) => reason.Split(", LZ4")[0];

    private static (string Codec, string Reason, string[] Stored) Compression(CliResult result)
    {
        using var doc = JsonDocument.Parse(result.Out);
        var c = doc.RootElement.GetProperty("compression");
        var stored = doc.RootElement.GetProperty("archives").EnumerateArray()
            .Select(a => a.GetProperty("merge").GetProperty("compression").GetString()!).ToArray();
        return (c.GetProperty("codec").GetString()!, c.GetProperty("reason").GetString()!, stored);
    }

    [Test]
    public void Auto_Json_ShowsTheCodecChosenAndWhy_AndStoresWithIt()
    {
        var result = Build("--compress", "auto", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var (codec, reason, stored) = Compression(result);
        Assert.That(reason, Does.Match(AutoReason), reason);
        Assert.That(codec, Is.EqualTo(reason.EndsWith(": lz4", StringComparison.Ordinal) ? "lz4" : "none"));
        Assert.That(stored, Is.Not.Empty.And.All.EqualTo(codec));
    }

    [Test]
    public void NoCompressOption_IsAuto_AndTheTextReportSaysWhy()
    {
        var result = Build();
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var line = result.Out.Split('\n').Single(l => l.StartsWith("compression ", StringComparison.Ordinal));
        Assert.That(line["compression ".Length..], Does.Match(AutoReason));
    }

    [Test]
    public void Auto_ASecondBuild_GivesTheRememberedFigures()
    {
        var first = Compression(Build("--json"));
        File.Delete(Directory.GetFiles(_dir["cache"], "index.bin").Single()); // merge again, decided again
        var second = Compression(Build("--json"));
        // The device figure is remembered in the cache folder; the LZ4 decode figure only within a process, so an installed
        // binary (ARCHIVEEMU_EXE, one process per build) measures LZ4 again.
        Assert.That(DeviceFigure(second.Reason), Is.EqualTo(DeviceFigure(first.Reason)), "the device was not probed again");
        if (ArchiveEmuProgram.Installed is null)
            Assert.That(second.Reason, Is.EqualTo(first.Reason), "nor LZ4 measured again in this process");
    }

    [TestCase("lz4", "lz4: compression lz4")]
    [TestCase("none", "raw: compression none")]
    public void AForcedCodec_IsStoredAsToday_AndSaysSo(string word, string reason)
    {
        var result = Build("--compress", word, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var (codec, said, stored) = Compression(result);
        Assert.That((codec, said), Is.EqualTo((word, reason)));
        Assert.That(stored, Is.Not.Empty.And.All.EqualTo(word));
    }

    [Test]
    public void WithoutMerge_NothingIsDecided()
    {
        var result = CliRun.Run("build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--cache", _dir["cache"], "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        Assert.That(doc.RootElement.GetProperty("compression").ValueKind, Is.EqualTo(JsonValueKind.Null));
        Assert.That(File.Exists(Path.Combine(_dir["cache"], "device-speed.txt")), Is.False, "no probe without a merge");
    }
}
