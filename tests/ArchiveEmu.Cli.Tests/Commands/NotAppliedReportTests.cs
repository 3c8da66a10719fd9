using System.Text;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 31, "What a file server cannot do, said plainly": a Persona mod's files that only work through code inside the game are
/// reported per mod, one line each, by <c>build</c> (text and <c>--json</c>'s <c>not_applied</c>) and on <c>ls</c>'s stderr.
/// </summary>
public sealed class NotAppliedReportTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("not-applied-cli");
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT", "FONT0.FNT", TestData.Random(1, 100)), new("field", "f007.bf", TestData.Random(2, 50))]));
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.scripts" }"""));
        _dir.Write("mod/FEmulator/BF/f007.flow", Encoding.UTF8.GetBytes("void init_hook() { }"));
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/field/f007.bf", []);
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", TestData.Random(3, 120));
        _dir.Write("mod/bgme/battle.pme", [1]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void BuildJson_ListsEachFolderNotApplied_WithItsFilesAndWhy()
    {
        var result = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var notApplied = doc.RootElement.GetProperty("not_applied").EnumerateArray()
            .Select(n => (n.GetProperty("mod").GetString(), n.GetProperty("folder").GetString(), string.Join(",", n.GetProperty("files").EnumerateArray().Select(f => f.GetString())))).ToArray();
        Assert.That(notApplied, Is.EquivalentTo(new[]
        {
            ("mod", "bgme", "battle.pme"),
            ("mod", "FEmulator/BF", "f007.flow"),
            ("mod", "P5REssentials/CPK/EN.CPK", "field/f007.bf"),
        }));
        var mod = doc.RootElement.GetProperty("mods").EnumerateArray().Single();
        Assert.That(mod.GetProperty("layout").GetString(), Is.EqualTo("Reloaded-II"));
        Assert.That(mod.GetProperty("applied").EnumerateArray().Select(a => a.GetString()), Is.EqualTo(new[] { "P5REssentials/CPK" }));
        Assert.That(doc.RootElement.GetProperty("overrides").GetArrayLength(), Is.Zero, "nothing of the mod is a loose game file");
    }

    [Test]
    public void BuildText_SaysPerModAndFolderWhatIsNotApplied()
    {
        var result = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.ReplaceLineEndings("\n").Split('\n').Where(l => l.StartsWith("not applied")).ToArray();
        Assert.That(lines, Has.Length.EqualTo(3), result.Out);
        Assert.That(lines, Has.One.Contains("mod: 1 file(s) in FEmulator/BF/ not applied").And.Contains("f007.flow"));
        Assert.That(lines, Has.One.Contains("mod: 1 file(s) in bgme/ not applied").And.Contains("BGME"));
    }

    [Test]
    public void Build_SaysWhichLanguageFoldersApplied_AndListsTheOthersQuietly()
    {
        _dir.Write("mod/FEmulator/L10N/en/FONT/FONT0.FNT", TestData.Random(4, 130));
        _dir.Write("mod/FEmulator/L10N/ja/FONT/FONT0.FNT", TestData.Random(5, 140));
        var text = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(text.Out, Does.Contain("languages  mod: FEmulator/L10N/en: 1 file(s)"), text.ToString());
        Assert.That(text.Out, Does.Contain("not applied  mod: 1 file(s) in FEmulator/L10N/ja/ not applied: language folder for ja; the game's language is en"));
        Assert.That(text.Out, Does.Not.Contain("warning    mod"), "another language's folder is no warning");

        var json = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("mods")[0].GetProperty("languages").EnumerateArray().Select(l => l.GetString()),
            Is.EqualTo(new[] { "FEmulator/L10N/en: 1 file(s)" }));
        Assert.That(doc.RootElement.GetProperty("not_applied").EnumerateArray().Single(n => n.GetProperty("folder").GetString() == "FEmulator/L10N/ja")
            .GetProperty("quiet").GetBoolean(), Is.True);
    }

    [Test]
    public void Ls_WritesWhatIsNotApplied_OnStderr()
    {
        var result = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "CPK/EN.CPK");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error, Does.Contain("archiveemu: not applied: mod: 1 file(s) in FEmulator/BF/"));
        Assert.That(result.Out, Does.Not.Contain("not applied"));
    }
}
