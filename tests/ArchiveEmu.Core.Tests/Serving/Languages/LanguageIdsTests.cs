using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Core.Tests.Serving.Languages;

public sealed class LanguageIdsTests
{
    [Test]
    public void Known_AreTheLocalisationFrameworksIds() =>
        Assert.That(LanguageIds.Known, Is.EquivalentTo(new[] { "en", "de", "es", "fr", "it", "ja", "ko", "pl", "pt", "ru", "tr", "zh-Hant", "zh-Hans" }));

    [TestCase("zh-hans", "zh-Hans")]
    [TestCase("ZH-HANT", "zh-Hant")]
    [TestCase("JA", "ja")]
    [TestCase("en", "en")]
    public void Canonical_AnyLetterCase_IsTheFrameworksSpelling(string given, string expected) =>
        Assert.That(LanguageIds.Canonical(given), Is.EqualTo(expected));

    [TestCase("english")]
    [TestCase("zh")]
    [TestCase("es-419")]
    public void Canonical_AnUnknownId_IsNull(string given) => Assert.That(LanguageIds.Canonical(given), Is.Null);

    // Steam's API names (partner.steamgames.com "Languages supported on Steam"), as appmanifest_*.acf records them.
    [TestCase("english", "en")]
    [TestCase("japanese", "ja")]
    [TestCase("french", "fr")]
    [TestCase("german", "de")]
    [TestCase("spanish", "es")]
    [TestCase("latam", "es")]
    [TestCase("italian", "it")]
    [TestCase("koreana", "ko")]
    [TestCase("schinese", "zh-Hans")]
    [TestCase("tchinese", "zh-Hant")]
    [TestCase("russian", "ru")]
    [TestCase("brazilian", "pt")]
    [TestCase("portuguese", "pt")]
    [TestCase("polish", "pl")]
    [TestCase("turkish", "tr")]
    [TestCase("Spanish", "es")]
    public void FromSteam_SteamsLanguageName_IsTheFrameworksId(string steam, string id) => Assert.That(LanguageIds.FromSteam(steam), Is.EqualTo(id));

    [TestCase("arabic")]
    [TestCase("thai")]
    [TestCase("")]
    public void FromSteam_ALanguageTheFrameworkHasNoIdFor_IsNull(string steam) => Assert.That(LanguageIds.FromSteam(steam), Is.Null);

    [Test]
    public void Unknown_NamesWhatWasGivenWhereAndEveryId() =>
        Assert.That(LanguageIds.Unknown("klingon", "--language"), Is.EqualTo(
            "--language takes en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant or zh-Hans, not 'klingon'"));
}
