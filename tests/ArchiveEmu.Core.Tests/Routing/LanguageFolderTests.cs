using System.Text;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// The Localisation Framework's language folders, <c>FEmulator/L10N/&lt;lang&gt;/&lt;route&gt;</c> (docs/DESIGN.md, "Language folders"),
/// rule by rule and line by line, on a game laid out like Persona 5 Royal's.
/// </summary>
public sealed class LanguageFolderTests
{
    private static readonly byte[] Font = TestData.Random(1, 900);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("language-folders");
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT", "FONT0.FNT", Font)]));
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/readme.txt", [1]);
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.mod" }"""));
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", TestData.Random(2, 50));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    // Reloaded.Universal.Localisation.Framework's Language.Languages, as published.
    private static readonly string[] FrameworkIds = ["en", "de", "es", "fr", "it", "ja", "ko", "pl", "pt", "ru", "tr", "zh-Hant", "zh-Hans"];

    [TestCaseSource(nameof(FrameworkIds))]
    public void EachLanguageIdOfTheFramework_IsAFolderAppliedInThatLanguage(string id)
    {
        var file = _dir.Write($"mod/FEmulator/L10N/{id}/FONT/FONT0.FNT", TestData.Random(3, 60));

        var plan = ResolveIn(id);

        Assert.That(plan.ModReports.Single().Languages, Is.EqualTo(new[] { $"FEmulator/L10N/{id}: 1 file(s)" }));
        Assert.That(plan.Warnings, Is.Empty);
        var change = plan.FindArchive("CPK/EN.CPK")!.Patch.Changes.Single();
        Assert.That((change.Input!.Path, change.Rule), Is.EqualTo((file, $"P5REssentials/CPK/EN.CPK + FEmulator/L10N/{id}/FONT/FONT0.FNT")));
    }

    [Test]
    public void FilesInL10NItself_AndAFolderNamedByNoId_AreOneWarningEach_WordForWord()
    {
        _dir.Write("mod/FEmulator/L10N/readme.txt", [3]);
        _dir.Write("mod/FEmulator/L10N/notes.md", [3]);
        _dir.Write("mod/FEmulator/L10N/xx/FONT/FONT0.FNT", [4]);

        var plan = ResolveIn("fr");

        Assert.That(plan.Warnings, Is.EqualTo(new[]
        {
            "mod: 1 file(s) in FEmulator/L10N/xx/ not applied: xx is no language id of the Localisation Framework "
                + "(en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant, zh-Hans) (FONT/FONT0.FNT)",
            "mod: 2 file(s) in FEmulator/L10N/ not applied: the Localisation Framework reads files in a language folder "
                + "(FEmulator/L10N/<language id>/<route>) (notes.md, readme.txt)",
        }));
        Assert.That(plan.NotApplied.Select(n => n.Line), Is.EqualTo(plan.Warnings));
        Assert.That(plan.ModReports.Single().Languages, Is.Empty);
    }

    [Test]
    public void AnotherLanguagesFolder_IsAQuietLineSayingWhichLanguages()
    {
        _dir.Write("mod/FEmulator/L10N/de/FONT/FONT0.FNT", [4]);

        var line = ResolveIn("fr").NotApplied.Single();

        Assert.That((line.Quiet, line.Line), Is.EqualTo((true,
            "mod: 1 file(s) in FEmulator/L10N/de/ not applied: language folder for de; the game's language is fr (FONT/FONT0.FNT)")));
    }

    [Test]
    public void AnIdSpelledInAnotherCase_IsApplied_WithOneWarningWordForWord()
    {
        _dir.Write("mod/FEmulator/L10N/ZH-HANT/FONT/FONT0.FNT", [4]);

        var plan = ResolveIn("zh-Hant");

        Assert.That(plan.Warnings, Is.EqualTo(new[] { $"mod folder {_dir["mod/FEmulator/L10N/ZH-HANT"]}: applied for zh-Hant, but the Localisation "
            + "Framework in the game finds it only spelled zh-Hant (it knows the id letter case aside, then looks the folder up as spelled)" }));
        Assert.That(plan.ModReports.Single().Languages, Is.EqualTo(new[] { "FEmulator/L10N/ZH-HANT: 1 file(s)" }));
    }

    [Test]
    public void TwoRoutesReachingOneFile_TheLongerWins_AtEqualLengthTheFirstInOrdinalOrder()
    {
        // "FONT/FONT0.FN" and "ONT/FONT0.FNT" are both 13 letters and both in the mod file's path; "FONT0.FNT" is shorter.
        var first = _dir.Write("mod/FEmulator/L10N/fr/FONT/FONT0.FN", [5]);
        _dir.Write("mod/FEmulator/L10N/fr/ONT/FONT0.FNT", [6]);
        _dir.Write("mod/FEmulator/L10N/fr/FONT0.FNT", [7]);

        var plan = ResolveIn("fr");

        var change = plan.FindArchive("CPK/EN.CPK")!.Patch.Changes.Single();
        Assert.That((change.Input!.Path, change.Rule), Is.EqualTo((first, "P5REssentials/CPK/EN.CPK + FEmulator/L10N/fr/FONT/FONT0.FN")));
        Assert.That(plan.ModReports.Single().Languages, Is.EqualTo(new[] { "FEmulator/L10N/fr: 3 file(s)" }), "each route matched a file");
    }

    [Test]
    public void AShorterRouteFirstInOrder_GivesWayToARouteTwoLettersLonger()
    {
        // "FONT0.FNT" (9 letters) comes first in ordinal order; "T/FONT0.FNT" (11) reaches the same file and wins.
        _dir.Write("mod/FEmulator/L10N/fr/FONT0.FNT", [5]);
        var longer = _dir.Write("mod/FEmulator/L10N/fr/T/FONT0.FNT", [6]);

        var change = ResolveIn("fr").FindArchive("CPK/EN.CPK")!.Patch.Changes.Single();
        Assert.That((change.Input!.Path, change.Rule), Is.EqualTo((longer, "P5REssentials/CPK/EN.CPK + FEmulator/L10N/fr/T/FONT0.FNT")));
    }

    [Test]
    public void ARouteMatchingNoFileOfTheMod_IsOneWarning_AndIsNotCountedAsApplied()
    {
        _dir.Write("mod/FEmulator/L10N/fr/FONT/FONT0.FNT", [5]);
        _dir.Write("mod/FEmulator/L10N/fr/MODEL/C0005.GMD", [6]);

        var plan = ResolveIn("fr");

        Assert.That(plan.Warnings, Is.EqualTo(new[] { "mod: 1 file(s) in FEmulator/L10N/fr/ not applied: matches none of the mod's own files: "
            + "the Localisation Framework replaces only files of the same mod whose path contains the route (MODEL/C0005.GMD)" }));
        Assert.That(plan.ModReports.Single().Languages, Is.EqualTo(new[] { "FEmulator/L10N/fr: 1 file(s)" }));
        File.Delete(_dir["mod/FEmulator/L10N/fr/FONT/FONT0.FNT"]);
        Assert.That(ResolveIn("fr").ModReports.Single().Languages, Is.Empty, "a folder whose routes match nothing is not applied");
    }

    [Test]
    public void AGameFileTheModReplacesWhole_IsReadFromTheLanguagesFile_UnderBothRules()
    {
        _dir.Write("mod/Redirector/readme.txt", [8]);
        var fr = _dir.Write("mod/FEmulator/L10N/fr/readme.txt", [9]);

        var file = ResolveIn("fr").Overrides.Single();

        Assert.That((file.RelativePath, file.SourcePath, file.Rule), Is.EqualTo(("readme.txt", fr, "Redirector + FEmulator/L10N/fr/readme.txt")));
    }

    private RoutePlan ResolveIn(string language) => new ModRouter(_dir["game"], [_dir["mod"]]) { Language = language }.Resolve();
}
