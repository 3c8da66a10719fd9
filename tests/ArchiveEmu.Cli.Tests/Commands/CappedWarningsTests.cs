using System.Text.Json;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Cli.Tests.Profiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48, "Warnings are capped": an AppConfig.json listing a million mods that are not installed printed two million
/// lines. Now 20 of a kind, then "… and N more like …"; <c>build --json</c> and <c>run</c>'s log keep every one.
/// </summary>
[NonParallelizable]
public sealed class CappedWarningsTests
{
    private const int Missing = 1000;

    [Test]
    public void CappedLines_KeepsTwentyOfAKind_InOrder_AndCountsTheRest()
    {
        var lines = Enumerable.Range(0, 30).SelectMany(i => new[] { $"a.json: enables mod.{i}, which is not installed under /m", $"mod {i} Name {i}.0 /m/{i}" })
            .Append("one of its own kind").ToList();
        var left = new List<string>();

        var shown = CappedLines.Of(lines, "all in the log", left.Add).ToList();

        Assert.That(shown.Take(40), Is.EqualTo(lines.Take(40)), "the first 20 of each kind, in order");
        Assert.That(shown[40], Is.EqualTo("one of its own kind"));
        Assert.That(shown[41..], Is.EqualTo(new[]
        {
            "… and 10 more like \"a.json: enables mod.0, which is not installed under /m\" (all in the log)",
            "… and 10 more like \"mod 0 Name 0.0 /m/0\" (all in the log)",
        }));
        Assert.That(left, Is.EqualTo(lines.Skip(40).Take(20)), "what is left out goes to the log");
    }

    [Test]
    public void AnAppEnablingAThousandMissingMods_BuildPrintsTwentyOfEach_AndJsonKeepsThemAll()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        using var dir = new TempDirectory("cli-capped");
        var p = Setup(dir);

        var text = CliRun.Run("build", "--game", p.Game, "--reloaded-dir", p.ConfigFolder, "--no-cache");
        var json = CliRun.Run("build", "--game", p.Game, "--reloaded-dir", p.ConfigFolder, "--no-cache", "--json");

        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        var lines = text.Out.Split('\n');
        Assert.That(lines.Count(l => l.Contains("which is not installed")), Is.EqualTo(20), text.Out[..Math.Min(4000, text.Out.Length)]);
        Assert.That(lines.Count(l => l.StartsWith("skipped ", StringComparison.Ordinal)), Is.EqualTo(20));
        Assert.That(lines, Has.Some.StartWith($"warning    … and {Missing - 20} more like \"").And.Some.StartWith($"… and {Missing - 20} more like \"skipped "));
        Assert.That(text.Out.Length + text.Error.Length, Is.LessThan(40_000), "a screen of text, not a thousand lines");
        using var report = JsonDocument.Parse(json.Out);
        Assert.That(report.RootElement.GetProperty("warnings").EnumerateArray().Count(w => w.GetString()!.Contains("which is not installed")), Is.EqualTo(Missing));
    }

    [Test]
    public void Run_PrintsTwentyOfEach_AndItsLogKeepsThemAll()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        using var user = new UserFoldersScope();
        using var dir = new TempDirectory("cli-capped-run");
        var p = Setup(dir);

        var result = CliRun.Run("run", "--game", p.Game, "--reloaded-dir", p.ConfigFolder, "--no-cache", "--on-failure", "stop", "--", "true");

        var stderr = result.Error.Split('\n');
        Assert.That(stderr.Count(l => l.Contains("which is not installed")), Is.EqualTo(20), result.ToString());
        Assert.That(stderr, Has.Some.StartWith($"archiveemu: warning: … and {Missing - 20} more like \"").And.Some.EndWith("(all in the log)"));
        Assert.That(stderr, Has.Some.StartWith($"archiveemu: … and {Missing - 20} more like \"skipped "), "Reloaded-II's lines, cut of their own");
        var log = File.ReadAllLines(Directory.GetFiles(user.Logs).Single());
        Assert.That(log.Count(l => l.Contains("which is not installed")), Is.EqualTo(Missing), "the log keeps every one");
        Assert.That(log.Count(l => l.Contains(": enabled but not installed") && !l.Contains("… and ")), Is.EqualTo(Missing));
    }

    private static FakeProtonPrefix Setup(TempDirectory dir)
    {
        var p = new FakeProtonPrefix(dir.Path);
        Directory.CreateDirectory(Path.Combine(p.Game, "data"));
        File.WriteAllText(Path.Combine(p.Game, "P5R.exe"), "");
        File.WriteAllText(Path.Combine(p.Game, "data", "readme.txt"), "game\n");
        p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(p.Game, "P5R.exe")), ["ui", .. Enumerable.Range(0, Missing).Select(i => $"missing.mod{i}")]);
        var ui = p.Mod("ui-fix", "ui", "UI Fix", "1.0.3");
        Directory.CreateDirectory(Path.Combine(ui, "Redirector", "data"));
        File.WriteAllText(Path.Combine(ui, "Redirector", "data", "readme.txt"), "modded\n");
        return p;
    }
}
