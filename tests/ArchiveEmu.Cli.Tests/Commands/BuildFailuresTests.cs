using System.Text.Json;
using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>Issue 18: one damaged archive among several does not hide the others: every archive is reported, then exit 1 listing the failures.</summary>
public sealed class BuildFailuresTests
{
    private TempDirectory _dir = null!;
    private string[] _gameArgs = [];

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("build-failures");
        foreach (var name in new[] { "a", "b", "c", "d" })
        {
            _dir.Write($"game/data/{name}.afs", AfsTestWriter.Write([TestData.Random(1, 3000), TestData.Random(2, 5000)]));
            _dir.Write($"mods/m/data/{name}.afs/0.bin", TestData.Random(3, 1000));
        }
        foreach (var damaged in new[] { "b", "d" }) // cut inside the first entry's data
            File.WriteAllBytes(_dir[$"game/data/{damaged}.afs"], File.ReadAllBytes(_dir[$"game/data/{damaged}.afs"])[..3500]);
        _gameArgs = ["--game", _dir["game"], "--mod", _dir["mods/m"], "--no-cache"];
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    private const string Hint = "truncated or damaged original? verify the game files";

    [Test]
    public void Build_TwoDamagedArchivesAmongFour_ReportsEveryArchive_ThenExits1ListingTheFailures()
    {
        var result = CliRun.Run(["build", .. _gameArgs]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Does.Contain(": 4 archives, 0 whole-file overrides"), "every archive of the plan counted");
        foreach (var good in new[] { "data/a.afs", "data/c.afs" })
            Assert.That(result.Out, Does.Contain($"{good}  (afs)\n  entries    1 replaced, 0 added, 0 deleted"), result.ToString());
        foreach (var bad in new[] { "data/b.afs", "data/d.afs" })
            Assert.That(result.Out, Does.Match($@"(?m)^{bad}  \(afs\)\n  failed     .+; {Regex.Escape(Hint)}$"), result.ToString());
        var lines = result.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(1), result.ToString());
        Assert.That(lines[0], Is.EqualTo($"archiveemu build: 2 of 4 archives failed (data/b.afs, data/d.afs); {Hint}"));
        Assert.That(result.Error, Does.Not.Contain(" at "));
    }

    [Test]
    public void BuildJson_TwoDamagedArchivesAmongFour_ListsTheBuiltOnesAndTheFailures()
    {
        var result = CliRun.Run(["build", .. _gameArgs, "--json"]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var archives = doc.RootElement.GetProperty("archives").EnumerateArray().Select(a => a.GetProperty("path").GetString()).ToArray();
        Assert.That(archives, Is.EqualTo(new[] { "data/a.afs", "data/c.afs" }));
        var failures = doc.RootElement.GetProperty("failures").EnumerateArray().ToArray();
        Assert.That(failures.Select(f => f.GetProperty("path").GetString()), Is.EqualTo(new[] { "data/b.afs", "data/d.afs" }));
        foreach (var f in failures)
        {
            Assert.That(f.GetProperty("format").GetString(), Is.EqualTo("afs"));
            Assert.That(f.GetProperty("error").GetString(), Is.Not.Empty);
            Assert.That(f.GetProperty("hint").GetString(), Is.EqualTo(Hint));
        }
        Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), result.ToString());
    }
}
