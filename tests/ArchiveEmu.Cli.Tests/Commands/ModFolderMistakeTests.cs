using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>Issue 18: a --mod that is the game folder or inside it is refused; the same mod twice, or a mod inside another, is warned about.</summary>
public sealed class ModFolderMistakeTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("mod-mistakes");
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write(Enumerable.Range(0, 4).Select(i => (byte[]?)TestData.Random(i, 1000 + i)).ToArray()));
        _dir.Write("game/data/readme.txt", "game"u8.ToArray());
        _dir.Write("mods/a/data/voice.afs/1.bin", TestData.Random(10, 500));
        _dir.Write("mods/b/data/voice.afs/1.bin", TestData.Random(11, 600));
        _dir.Write("mods/a/data/data/readme.txt", "nested"u8.ToArray());
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [TestCase("game")]
    [TestCase("game/data")]
    public void Build_AModThatIsTheGameFolderOrInsideIt_IsAUsageError(string mod)
    {
        var result = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir[mod], "--no-cache");
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Out, Is.Empty);
        var lines = result.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(2), result.ToString());
        Assert.That(lines[0], Is.EqualTo($"archiveemu build: --mod {_dir[mod]} is {(mod == "game" ? "the game folder" : "inside the game folder")} "
            + $"{_dir["game"]}; a mod is a folder of its own that mirrors the game's"));
        Assert.That(result.Error, Does.Not.Contain(" at "));
    }

    [Test]
    public void Build_TheSameModTwice_IsUsedOnceAtItsLastPosition_WithAWarning()
    {
        var result = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mods/b"], "--mod", _dir["mods/a"], "--mod", _dir["mods/b"] + "/", "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        Assert.That(doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()), Is.EqualTo(new[]
        {
            $"--mod {_dir["mods/b"]} is given twice; it is used once, at its last position (after {_dir["mods/a"]})",
        }));
        var conflict = doc.RootElement.GetProperty("archives")[0].GetProperty("conflicts")[0];
        Assert.That(conflict.GetProperty("winner").GetString(), Is.EqualTo("b"), "b, given last, wins entry 1");
        Assert.That(conflict.GetProperty("mods").GetArrayLength(), Is.EqualTo(2));
    }

    [Test]
    public void Build_AModInsideAnotherMod_IsWarnedAbout_InTextAndJson()
    {
        string warning = $"--mod {_dir["mods/a/data"]} is inside --mod {_dir["mods/a"]}; its files are applied twice, once under each";
        var text = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mods/a"], "--mod", _dir["mods/a/data"], "--no-cache");
        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        Assert.That(text.Out, Does.Contain($"\nwarning    {warning}\n"), text.ToString());
        var json = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mods/a"], "--mod", _dir["mods/a/data"], "--no-cache", "--json");
        using var doc = JsonDocument.Parse(json.Out);
        var warnings = doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()!).ToArray();
        Assert.That(warnings[0], Is.EqualTo(warning));
        // Issue 19: the inner mod's voice.afs/ is at the game's root, where the game has no voice.afs.
        Assert.That(warnings.Skip(1).Single(), Does.StartWith($"mod folder {_dir["mods/a/data/voice.afs"]} looks like an archive's entries")
            .And.EndWith("closest game path: data/voice.afs"));
    }

    [Test]
    public void Build_AMistypedArchiveNameFollowedByAFolder_IsWarnedAbout_NamingTheArchive()
    {
        // Issue 48: CPK/EN.CKP/… in a plain mod is no archive's entries by its extension, yet surely meant for CPK/EN.CPK.
        string game = ArchiveEmu.TestSupport.Persona.PersonaSample.Game;
        _dir.Write("mods/typo/CPK/EN.CKP/FONT/FONT0.FNT", TestData.Random(12, 300));
        var json = CliRun.Run("build", "--game", game, "--mod", _dir["mods/typo"], "--no-cache", "--json");
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()), Is.EqualTo(new[]
        {
            $"mod folder {_dir["mods/typo/CPK/EN.CKP"]} looks like an archive's entries, but the game has no file at CPK/EN.CKP "
                + "(letter case aside), so its files are added as new files; closest game path: CPK/EN.CPK",
        }));
    }
}
