using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 19, "Letter case": a Windows-made mod with <c>DATA/Textures.AFS/3.dds</c> for the game's <c>data/textures.afs</c>
/// is applied and reported under the game's spelling; a folder that looks meant for an archive but matches no game file is warned about.
/// </summary>
public sealed class LetterCaseTests
{
    private static readonly byte[]?[] Entries = Enumerable.Range(0, 5).Select(i => (byte[]?)TestData.Random(100 + i, 900 + 37 * i)).ToArray();
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-letter-case");
        _dir.Write("game/data/textures.afs", AfsTestWriter.Write(Entries));
        _dir.Write("game/data/readme.txt", "game"u8.ToArray());
    }

    [TearDown]
    public void DeleteGame() => _dir?.Dispose();

    [Test]
    public void Build_WindowsMadeModInAnotherCase_IsAppliedUnderTheGamesSpelling_AndCatServesTheModsBytes()
    {
        var mine = _dir.Write("mod/DATA/Textures.AFS/3.dds", TestData.Random(7, 1234));

        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        using var doc = JsonDocument.Parse(build.Out);
        var archive = doc.RootElement.GetProperty("archives").EnumerateArray().Single();
        Assert.That(archive.GetProperty("path").GetString(), Is.EqualTo("data/textures.afs"));
        Assert.That(archive.GetProperty("replaced").GetInt32(), Is.EqualTo(1));
        Assert.That(doc.RootElement.GetProperty("overrides").GetArrayLength(), Is.Zero, "nothing is a new whole file");
        Assert.That(doc.RootElement.GetProperty("warnings").GetArrayLength(), Is.Zero);

        var output = _dir["out/textures.afs"];
        Directory.CreateDirectory(_dir["out"]);
        var cat = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/textures.afs", "-o", output);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        var read = AfsIndependentReader.Read(output);
        Assert.That(read, Has.Count.EqualTo(Entries.Length));
        for (int i = 0; i < Entries.Length; i++)
            Assert.That(read[i].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(i == 3 ? File.ReadAllBytes(mine) : Entries[i]!)), $"entry {i}");
    }

    [Test]
    public void Build_TwoModsSpellingOneEntryDifferently_ReportOneConflict_TheLaterWins()
    {
        _dir.Write("a/data/textures.afs/3.dds", TestData.Random(1, 100));
        _dir.Write("b/DATA/TEXTURES.AFS/3.dds", TestData.Random(2, 200));
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache", "--json");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        using var doc = JsonDocument.Parse(build.Out);
        var conflict = doc.RootElement.GetProperty("conflicts").EnumerateArray().Single();
        Assert.That(conflict.GetProperty("target").GetString(), Is.EqualTo("data/textures.afs"));
        Assert.That(conflict.GetProperty("winner").GetString(), Is.EqualTo("b"));
    }

    [Test]
    public void Build_TwoSpellingsOfOneFileInOneMod_IsAnErrorOnOneLineNamingBoth()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("mod/data/Readme.txt", [1]);
        _dir.Write("mod/data/README.txt", [2]);
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Out, Is.Empty);
        var lines = build.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(1), build.ToString());
        Assert.That(lines[0], Does.StartWith("archiveemu build: ").And.Contain(_dir["mod/data/Readme.txt"]).And.Contain(_dir["mod/data/README.txt"]));
    }

    [Test]
    public void Build_ArchiveFolderMatchingNoGameFile_IsWarnedAbout_InTextAndJson_AndLsOnStderr()
    {
        _dir.Write("mod/data/texture.afs/3.dds", [3]);
        string start = $"mod folder {_dir["mod/data/texture.afs"]} looks like an archive's entries";

        var text = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        var line = text.Out.Split('\n').Single(l => l.StartsWith("warning    "));
        Assert.That(line, Does.Contain(start).And.EndWith("closest game path: data/textures.afs"));

        var json = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()), Is.EqualTo(new[] { line["warning    ".Length..] }));

        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/textures.afs");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Error, Does.Contain($"archiveemu: warning: {start}"));
    }

    [Test]
    public void Build_AnEntryInAnotherCaseInsideAPak_IsAFourthEntry_WarnedAboutOnce_FromTheCacheToo()
    {
        // Issue 48: PAK names compare with letter case (as Atlus's readers do), so F007.BMD beside f007.bmd replaces nothing.
        _dir.Write("mod/CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/F007.BMD", TestData.Random(8, 300));
        string[] args = ["--game", ArchiveEmu.TestSupport.Persona.PersonaSample.Game, "--mod", _dir["mod"]];
        const string warning = "CPK/EN.CPK/FIELD/PACK/FD007_003.ARC: entry F007.BMD (from mod) is added as a new entry beside f007.bmd: "
            + "PAK compares entry names with letter case, so it replaces nothing; spell it f007.bmd to replace that entry";
        foreach (var pass in new[] { "built", "from the cache" })
        {
            var build = CliRun.Run(["build", .. args, "--cache", _dir["cache"], "--merge", "always", "--json"]);
            Assert.That(build.ExitCode, Is.Zero, build.ToString());
            using var doc = JsonDocument.Parse(build.Out);
            Assert.That(doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()), Is.EqualTo(new[] { warning }), pass);
        }
        var ls = CliRun.Run(["ls", .. args, "--no-cache", "CPK/EN.CPK/FIELD/PACK/FD007_003.ARC"]);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Error, Is.EqualTo($"archiveemu: warning: {warning}\n"));
        Assert.That(ls.Out, Does.Contain("4 entries").And.Contain("  added     mod  "));
    }
}
