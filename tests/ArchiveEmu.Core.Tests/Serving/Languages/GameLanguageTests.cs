using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.Tests.Machine.Steam;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving.Languages;

/// <summary>
/// The game's language as the library knows it: the one asked for, else en saying why. Issue 49: the library never looks at
/// the machine, so a game in a Steam library that records another language (a temporary steamapps tree) still gets en.
/// </summary>
public sealed class GameLanguageTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateLibrary()
    {
        _dir = new TempDirectory("library-language");
        Directory.CreateDirectory(_dir["library/steamapps/common/P5R/CPK"]);
    }

    [TearDown]
    public void DeleteLibrary() => _dir?.Dispose();

    private string Game => _dir["library/steamapps/common/P5R"];

    private void Manifest(string appId, string text) => _dir.Write($"library/steamapps/appmanifest_{appId}.acf", System.Text.Encoding.UTF8.GetBytes(text));

    [Test]
    public void GameSetup_WithoutALanguage_IsEnglishSayingSo_NeverSteamsRecord()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "japanese"));
        Assert.That(new GameSetup(Game, []).Language, Is.EqualTo(new LanguageChoice("en", "default: no language given")));
    }

    [Test]
    public void GameSetup_ItsLanguage_ReachesTheModRouter() =>
        Assert.That(new GameSetup(Game, []) { Language = new LanguageChoice("zh-Hans", "test") }.Router().Language, Is.EqualTo("zh-Hans"));

    [Test]
    public void ArchiveEmulator_TheLanguageOption_ReachesTheGameSetup()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "spanish"));
        using var emulator = new ArchiveEmulator(Game, new ArchiveEmulatorOptions { Language = "KO" });
        Assert.That(emulator.Language, Is.EqualTo(new LanguageChoice("ko", "ArchiveEmulatorOptions.Language")));
    }

    [Test]
    public void ArchiveEmulator_WithoutTheLanguageOption_IsEnglishSayingSo_NeverSteamsRecord()
    {
        Manifest("1687950", SteamManifestText.For("1687950", "P5R", "spanish"));
        using var emulator = new ArchiveEmulator(Game);
        Assert.That(emulator.Language, Is.EqualTo(new LanguageChoice("en", "default: ArchiveEmulatorOptions.Language not set")));
    }

    [Test]
    public void ArchiveEmulator_AnUnknownLanguageOption_IsAnArgumentExceptionListingTheIds() =>
        Assert.That(() => new ArchiveEmulator(Game, new ArchiveEmulatorOptions { Language = "xx" }),
            Throws.ArgumentException.With.Message.EqualTo(LanguageIds.Unknown("xx", "ArchiveEmulatorOptions.Language")));
}
