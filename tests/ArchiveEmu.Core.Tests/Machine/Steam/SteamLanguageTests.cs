using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Machine.Steam;

/// <summary>The game's language as the CLI and the host choose it: asked for, else Steam's record for the game folder (a temporary steamapps tree), else en.</summary>
public sealed class SteamLanguageTests
{
    private TempDirectory _dir = null!;
    private List<string> _warnings = null!;

    [SetUp]
    public void CreateLibrary()
    {
        _dir = new TempDirectory("language");
        _warnings = new List<string>();
        Directory.CreateDirectory(_dir["library/steamapps/common/P5R/CPK"]);
        Directory.CreateDirectory(_dir["library/steamapps/common/Other"]);
    }

    [TearDown]
    public void DeleteLibrary() => _dir.Dispose();

    private string Game => _dir["library/steamapps/common/P5R"];

    private string Manifest(string appId, string text) => WriteText($"library/steamapps/appmanifest_{appId}.acf", text);

    private string WriteText(string relative, string text) => _dir.Write(relative, System.Text.Encoding.UTF8.GetBytes(text));

    private LanguageChoice Steam(string gameFolder) => SteamLanguage.Of(gameFolder, _warnings.Add);

    [Test]
    public void FromSteam_TheManifestNamingTheGameFolder_GivesItsUserConfigLanguage()
    {
        Manifest("1113000", SteamManifestText.For("1113000", "Other", "german"));
        var path = Manifest("1687950", SteamManifestText.For("1687950", "P5R", "spanish"));
        Assert.That(Steam(Game), Is.EqualTo(new LanguageChoice("es", $"Steam: {path}, UserConfig language \"spanish\"")));
        Assert.That(_warnings, Is.Empty);
    }

    [Test]
    public void FromSteam_UserConfigAndMountedConfigDisagree_UserConfigWins()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", userLanguage: "koreana", mountedLanguage: "english"));
        Assert.That(Steam(Game).Id, Is.EqualTo("ko"));
    }

    [Test]
    public void FromSteam_OnlyMountedConfigHasALanguage_ItIsUsed()
    {
        var text = SteamManifestText.For("1687950", "P5R", userLanguage: null);
        var path = Manifest("1687950", text.Insert(text.LastIndexOf('}'), "\t\"MountedConfig\" { \"language\" \"japanese\" }\n"));
        Assert.That(Steam(Game), Is.EqualTo(new LanguageChoice("ja", $"Steam: {path}, MountedConfig language \"japanese\"")));
    }

    [Test]
    public void FromSteam_InstallDirInAnotherLetterCase_StillNamesTheGame()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "p5r", "schinese"));
        Assert.That(Steam(Game).Id, Is.EqualTo("zh-Hans"));
    }

    [Test]
    public void FromSteam_AFolderOutsideASteamLibrary_IsEnglishSayingSo()
    {
        Directory.CreateDirectory(_dir["games/P5R"]);
        Assert.That(Steam(_dir["games/P5R"]), Is.EqualTo(new LanguageChoice("en", "default: the game is not in a Steam library")));
    }

    [Test]
    public void FromSteam_NoManifestNamesTheGame_IsEnglishSayingSo()
    {
        Manifest("1113000", SteamManifestText.For("1113000", "Other", "german"));
        Assert.That(Steam(Game), Is.EqualTo(new LanguageChoice("en",
            $"default: no Steam manifest in {_dir["library/steamapps"]} names the installdir \"P5R\"")));
        Assert.That(_warnings, Is.Empty);
    }

    [Test]
    public void FromSteam_AGarbledManifestAndNoneNamingTheGame_WarnsNamingItThenEnglish()
    {
        var garbled = Manifest("1687950", "\"AppState\"\n{\n\t\"installdir\"\t\t\"P5R\"\n\t\"UserConfig\"\n\t{\n");
        var choice = Steam(Game);
        Assert.That(choice.Id, Is.EqualTo("en"));
        Assert.That(choice.Source, Does.StartWith("default: no readable Steam manifest in"));
        Assert.That(_warnings, Is.EqualTo(new[] { $"{garbled}: Steam's manifest cannot be read (line 6: a block is not closed ('}}' missing))" }));
    }

    [Test]
    public void FromSteam_AGarbledManifestOfAnotherGame_IsNotWarnedAbout()
    {
        Manifest("1113000", "\"AppState\" { \"installdir\" ");
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "italian"));
        Assert.That((Steam(Game).Id, _warnings.Count), Is.EqualTo(("it", 0)));
    }

    [Test]
    public void FromSteam_ALanguageTheFrameworkHasNoIdFor_WarnsThenEnglish()
    {
        var path = Manifest("1687950", SteamManifestText.For("1687950", "P5R", "arabic"));
        Assert.That(Steam(Game), Is.EqualTo(new LanguageChoice("en", $"default: Steam: {path}, UserConfig language \"arabic\" has no Localisation Framework id")));
        Assert.That(_warnings, Is.EqualTo(new[] { $"{path}: Steam's language \"arabic\" has no Localisation Framework id; language folders use en" }));
    }

    [Test]
    public void FromSteam_AGameFolderReachedThroughASymlink_IsFoundByItsRealPath()
    {
        LinuxOnly.RequireSymlinks();
        var path = Manifest("1687950", SteamManifestText.For("1687950", "P5R", "french"));
        Directory.CreateDirectory(_dir["elsewhere"]);
        var link = _dir["elsewhere/persona"];
        Directory.CreateSymbolicLink(link, Game);
        Assert.That(Steam(link), Is.EqualTo(new LanguageChoice("fr", $"Steam: {path}, UserConfig language \"french\"")));
    }

    [Test]
    public void FromSteam_ALibraryReachedThroughASymlink_IsFoundAsGiven()
    {
        // The game folder itself is elsewhere (a symlink inside common/): Steam's library is the path as given.
        var path = Manifest("1687950", SteamManifestText.For("1687950", "Moved", "polish"));
        Directory.CreateDirectory(_dir["disk2/P5R"]);
        Directory.CreateSymbolicLink(_dir["library/steamapps/common/Moved"], _dir["disk2/P5R"]);
        Assert.That(Steam(_dir["library/steamapps/common/Moved"]), Is.EqualTo(new LanguageChoice("pl", $"Steam: {path}, UserConfig language \"polish\"")));
    }

    [Test]
    public void Choose_AnAskedLanguage_WinsOverSteamInTheFrameworksSpelling()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "spanish"));
        Assert.That(SteamLanguage.Choose("ZH-hant", "--language", Game, _warnings.Add), Is.EqualTo(new LanguageChoice("zh-Hant", "--language")));
    }

    [Test]
    public void Choose_NothingAsked_IsSteamsRecord()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "russian"));
        Assert.That(SteamLanguage.Choose(null, "--language", Game, _warnings.Add).Id, Is.EqualTo("ru"));
    }

    [Test]
    public void Choose_AnUnknownId_IsOneErrorListingTheIds() =>
        Assert.That(() => SteamLanguage.Choose("english", "--language", Game, _warnings.Add),
            Throws.ArgumentException.With.Message.EqualTo(LanguageIds.Unknown("english", "--language")));
}
