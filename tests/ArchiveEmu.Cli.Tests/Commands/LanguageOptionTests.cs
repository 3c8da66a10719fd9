using System.Text;
using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>Issue 31, language folders: <c>--language</c> on every command that opens a game, and <c>build</c> saying which language and why.</summary>
public sealed class LanguageOptionTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private const string Ids = "en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant or zh-Hans";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-language");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private string Text(string relative, string text) => _dir.Write(relative, Encoding.UTF8.GetBytes(text));

    [Test]
    public void BuildJson_WithLanguage_ReportsTheFrameworksIdAndTheOption()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Hd, "--no-cache", "--language", "ZH-hans", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var language = JsonDocument.Parse(result.Out).RootElement.GetProperty("language");
        Assert.That((language.GetProperty("id").GetString(), language.GetProperty("source").GetString()), Is.EqualTo(("zh-Hans", "--language")));
    }

    [Test]
    public void Build_AGameInASteamLibrary_SaysSteamsLanguageAndTheManifest()
    {
        Text("library/steamapps/common/P5R/readme.txt", "original");
        Text("mod/readme.txt", "modded");
        var manifest = Text("library/steamapps/appmanifest_1687950.acf",
            "\"AppState\"\n{\n\t\"appid\"\t\t\"1687950\"\n\t\"installdir\"\t\t\"P5R\"\n\t\"UserConfig\"\n\t{\n\t\t\"language\"\t\t\"spanish\"\n\t}\n}\n");
        var result = CliRun.Run("build", "--game", _dir["library/steamapps/common/P5R"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out.Split('\n'), Has.Member($"language: es (Steam: {manifest}, UserConfig language \"spanish\")"));
    }

    [Test]
    public void Build_AGameOutsideSteam_SaysEnglishByDefaultAndWhy()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Hd, "--no-cache");
        Assert.That(result.Out.Split('\n'), Has.Member("language: en (default: the game is not in a Steam library)"), result.ToString());
    }

    [Test]
    public void Build_AGarbledSteamManifest_IsAWarningNamingIt()
    {
        Text("library/steamapps/common/P5R/readme.txt", "original");
        Text("mod/readme.txt", "modded");
        var manifest = Text("library/steamapps/appmanifest_1687950.acf", "\"AppState\"\n{\n\t\"installdir\"\t\t\"P5R");
        var result = CliRun.Run("build", "--game", _dir["library/steamapps/common/P5R"], "--mod", _dir["mod"], "--no-cache", "--json");
        var doc = JsonDocument.Parse(result.Out).RootElement;
        Assert.That(doc.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()),
            Has.Member($"{manifest}: Steam's manifest cannot be read (line 3: a quoted string is not closed)"), result.ToString());
        Assert.That(doc.GetProperty("language").GetProperty("id").GetString(), Is.EqualTo("en"));
    }

    [TestCase("build")]
    [TestCase("cat")]
    [TestCase("ls")]
    [TestCase("mount")]
    [TestCase("run")]
    public void EveryCommand_AnUnknownLanguage_IsAUsageErrorListingTheIds(string command)
    {
        string[] tail = command switch
        {
            "cat" or "ls" => ["data/textures.afs"],
            "mount" => [_dir["mnt"]],
            "run" => ["--", "true"],
            _ => [],
        };
        var result = CliRun.Run([command, "--game", Game, "--mod", Hd, "--language", "klingon", .. tail]);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0],
            Is.EqualTo($"archiveemu {command}: --language takes {Ids}, not 'klingon'"));
        Assert.That(Directory.Exists(_dir["mnt"]), Is.False, "nothing prepared at the mount point");
    }

    [TestCase("cat")]
    [TestCase("ls")]
    public void CatAndLs_AKnownLanguage_AreServedAsWithout(string command)
    {
        string[] output = command == "cat" ? ["-o", _dir["out.afs"]] : [];
        var with = CliRun.Run([command, "--game", Game, "--mod", Hd, "--no-cache", "--language", "ja", "data/textures.afs", .. output]);
        var withBytes = command == "cat" ? File.ReadAllBytes(_dir["out.afs"]) : [];
        var without = CliRun.Run([command, "--game", Game, "--mod", Hd, "--no-cache", "data/textures.afs", .. output, .. command == "cat" ? ["--force"] : Array.Empty<string>()]);
        Assert.That(with.ExitCode, Is.Zero, with.ToString());
        Assert.That((with.Out, withBytes), Is.EqualTo((without.Out, command == "cat" ? File.ReadAllBytes(_dir["out.afs"]) : [])));
    }

    [TestCase("mount")]
    [TestCase("run")]
    public void MountAndRun_TheLanguage_IsPassedToTheHostAsItsSetting(string name)
    {
        Assert.That(HostSettings.Of(name == "run", _dir["mnt"], "--game", Game, "--mod", Hd, "--language", "ko"), Has.Member("Language=ko (--language)"));
    }
}
