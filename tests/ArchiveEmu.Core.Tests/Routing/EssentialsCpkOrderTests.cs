using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Which CPK gives a merged table its original: Persona Essentials (p5rpc.modloader <c>Mod_Merging.cs</c>, <c>_cpkNames</c> and
/// <c>_baseCpkNames</c>) puts the game language's CPK first, the base CPK second, the rest after. The names below are copied
/// from that table, not from ArchiveEmu's.
/// </summary>
public sealed class EssentialsCpkOrderTests
{
    [TestCase("ja", "JP", "DATA", "umd0")]
    [TestCase("en", "EN", "DATA_E", "data_EN")]
    [TestCase("de", "DE", "DATA_DE", "data_DE")]
    [TestCase("fr", "FR", "DATA_FR", "data_FR")]
    [TestCase("it", "IT", "DATA_IT", "data_IT")]
    [TestCase("ko", "KR", "DATA_K", "data_KR")]
    [TestCase("es", "ES", "DATA_ES", "data_ES")]
    [TestCase("zh-Hans", "SC", "DATA_CK", "data_CK")]
    [TestCase("zh-Hant", "TC", "DATA_CH", "data_CH")]
    [TestCase("pl", "EN", "DATA_E", "data_EN")] // a language these games do not ship: English's, Essentials' default
    public void TheLanguagesCpks_RankFirst_AnyLetterCase_TheBaseCpksSecond_TheRestLast(string language, string p5r, string p4g, string p3p)
    {
        foreach (var name in new[] { p5r, p4g, p3p })
        {
            Assert.That(GameCpks.EssentialsRank($"CPK/{name}.CPK", language), Is.Zero, name);
            Assert.That(GameCpks.EssentialsRank($"data/{name.ToLowerInvariant()}.cpk", language), Is.Zero, name);
        }
        foreach (var name in new[] { "BASE", "DATA", "umd0" }.Except([p5r, p4g, p3p]))
            Assert.That(GameCpks.EssentialsRank($"CPK/{name}.CPK", language), Is.EqualTo(1), name);
        // Every other language's CPK, and names that only contain a language's, are the rest.
        foreach (var name in new[] { "JP", "EN", "DE", "FR", "IT", "KR", "ES", "SC", "TC", "DATA_E", "DATA_K", "data_CH", "MOVIE", "EN_2", "XEN" }
            .Except([p5r, p4g, p3p], StringComparer.OrdinalIgnoreCase))
            Assert.That(GameCpks.EssentialsRank($"CPK/{name}.CPK", language), Is.EqualTo(2), name);
    }
}
