using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 31, "Done when": the P5R-style sample (fixtures/persona, all eleven mods in the fixture script's order) through the CLI.
/// <c>cat</c> of each CPK is re-read with the independent readers (<see cref="PersonaSample"/>); <c>build --json</c> reports what
/// is not applied and why, the language and where it came from, and the conflict on FONT/FONT0.FNT.
/// </summary>
public sealed class PersonaModSetTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-persona");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static string[] GameAndMods(params string[] tail) =>
        ["--game", PersonaSample.Game, .. PersonaSample.Mods.SelectMany(m => new[] { "--mod", m }), "--no-cache", .. tail];

    private static JsonElement BuildJson(params string[] extra)
    {
        var result = CliRun.Run(["build", .. GameAndMods([.. extra, "--json"])]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return JsonDocument.Parse(result.Out).RootElement.Clone();
    }

    private string Cat(string cpk, params string[] extra)
    {
        var output = _dir[$"{Guid.NewGuid():N}.cpk"];
        var result = CliRun.Run(["cat", .. GameAndMods([.. extra, cpk, "-o", output])]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return output;
    }

    private static (string?, string?, string, bool)[] NotApplied(JsonElement build) =>
        build.GetProperty("not_applied").EnumerateArray().Select(n => (n.GetProperty("mod").GetString(), n.GetProperty("folder").GetString(),
            string.Join(",", n.GetProperty("files").EnumerateArray().Select(f => f.GetString())), n.GetProperty("quiet").GetBoolean())).ToArray();

    [TestCase("en")]
    [TestCase("es")]
    public void Cat_EachCpk_AgreesWithTheIndependentReaders(string language)
    {
        string[] option = language == "en" ? [] : ["--language", language];
        PersonaSample.AssertBaseCpk(Cat("CPK/BASE.CPK", option), language);
        PersonaSample.AssertEnCpk(Cat("CPK/EN.CPK", option), language, _dir);
    }

    [Test]
    public void BuildJson_ListsEveryFileNotApplied_WithItsModFolderAndWhetherItIsQuiet()
    {
        Assert.That(NotApplied(BuildJson()), Is.EquivalentTo(new[]
        {
            ("font-l10n", "FEmulator/L10N/es", "FONT0.FNT", true),
            ("script-only", "bgme", "battle.pme", false),
            ("script-only", "FEmulator/BF", "f007.flow", false),
            ("script-only", "FEmulator/PAK", "field/pack/fd007_003.arc/f007.bf", false),
            ("misspelled", "CRIFsV2Hok", "CPK/EN/FONT/FONT0.FNT", false),
        }));
    }

    [Test]
    public void BuildJson_ListsTheInputsOfArchivesInsideEntries_NestedUnderTheirEntry()
    {
        var en = BuildJson().GetProperty("archives").EnumerateArray().Single(a => a.GetProperty("path").GetString() == "CPK/EN.CPK");
        var pak = en.GetProperty("nested").EnumerateArray().Single(n => n.GetProperty("entry").GetString() == "FIELD/PACK/FD007_003.ARC");
        Assert.That(pak.GetProperty("route").GetString(), Is.EqualTo("CPK/EN.CPK/FIELD/PACK/FD007_003.ARC"));
        Assert.That(pak.GetProperty("format").GetString(), Is.EqualTo("pak"));
        var bmd = pak.GetProperty("inputs").EnumerateArray().Single(i => i.GetProperty("entry").GetString() == "f007.bmd");
        Assert.That((bmd.GetProperty("mod").GetString(), bmd.GetProperty("rule").GetString()), Is.EqualTo(("field-edit", "FEmulator/PAK/field/pack/fd007_003.arc")));
        Assert.That(Path.GetFullPath(bmd.GetProperty("source").GetString()!),
            Is.EqualTo(Path.GetFullPath(Path.Combine(PersonaSample.Mod("field-edit"), "FEmulator/PAK/field/pack/fd007_003.arc/f007.bmd"))));
        var spd = pak.GetProperty("nested").EnumerateArray().Single(n => n.GetProperty("entry").GetString() == "fd007.spd");
        Assert.That(spd.GetProperty("inputs").EnumerateArray().Select(i => i.GetProperty("mod").GetString()), Has.All.EqualTo("field-sprites"));
    }

    [Test]
    public void BuildJson_TheMisspelledLayout_IsAWarningNamingTheClosestKnownLayout()
    {
        var warnings = BuildJson().GetProperty("warnings").EnumerateArray().Select(w => w.GetString()).ToArray();
        Assert.That(warnings, Has.One.Contains("CRIFsV2Hok/ is no layout folder ArchiveEmu knows (the closest is CRIFsV2Hook/)"));
        Assert.That(warnings, Has.One.Contains("script-only: none of its files is applied"), "a mod made only of in-game code is reported");
    }

    [Test]
    public void BuildJson_WithoutSteamOrOption_SaysEnglishAndWhy_AndNoLanguageFolderApplied()
    {
        var build = BuildJson();
        var language = build.GetProperty("language");
        Assert.That((language.GetProperty("id").GetString(), language.GetProperty("source").GetString()),
            Is.EqualTo(("en", "default: the game is not in a Steam library")));
        Assert.That(build.GetProperty("mods").EnumerateArray().SelectMany(m => m.GetProperty("languages").EnumerateArray()), Is.Empty);
    }

    [Test]
    public void BuildJson_WithLanguageEs_AppliesFontL10nsSpanishFolder_AndNoLongerListsIt()
    {
        var build = BuildJson("--language", "es");
        var language = build.GetProperty("language");
        Assert.That((language.GetProperty("id").GetString(), language.GetProperty("source").GetString()), Is.EqualTo(("es", "--language")));
        var l10n = build.GetProperty("mods").EnumerateArray().Single(m => m.GetProperty("mod").GetString() == "font-l10n");
        Assert.That(l10n.GetProperty("languages").EnumerateArray().Select(l => l.GetString()), Is.EqualTo(new[] { "FEmulator/L10N/es: 1 file(s)" }));
        Assert.That(NotApplied(build).Select(n => n.Item1), Has.None.EqualTo("font-l10n"));
    }

    [Test]
    public void BuildJson_TheFontBothFontModsChange_IsAConflictInEachCpk_FontL10nWins()
    {
        var conflicts = BuildJson().GetProperty("conflicts").EnumerateArray().Select(c => (c.GetProperty("target").GetString(), c.GetProperty("entry").GetString(),
            string.Join(",", c.GetProperty("mods").EnumerateArray().Select(m => m.GetString())), c.GetProperty("winner").GetString())).ToArray();
        Assert.That(conflicts, Is.EquivalentTo(new[]
        {
            ("CPK/BASE.CPK", "FONT/FONT0.FNT", "essentials-font,font-l10n", "font-l10n"),
            ("CPK/EN.CPK", "FONT/FONT0.FNT", "essentials-font,font-l10n", "font-l10n"),
        }));
    }

    [Test]
    public void BuildJson_NothingUnderALayoutFolder_IsServedAsAGameFile_OnlyTheTwoCpksChange()
    {
        var build = BuildJson();
        Assert.That(build.GetProperty("overrides").GetArrayLength(), Is.Zero, "no stray P5REssentials/, FEmulator/, bgme/ or CRIFsV2Hok/ file");
        Assert.That(build.GetProperty("archives").EnumerateArray().Select(a => a.GetProperty("path").GetString()), Is.EquivalentTo(new[] { "CPK/BASE.CPK", "CPK/EN.CPK" }));
        Assert.That(build.GetProperty("failures").GetArrayLength(), Is.Zero);
    }

    [Test]
    public void BuildText_SaysTheLanguage_TheFontConflict_AndOneLinePerFolderNotApplied()
    {
        var result = CliRun.Run(["build", .. GameAndMods()]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.Split('\n');
        Assert.That(lines, Has.Member("language: en (default: the game is not in a Steam library)"), result.Out);
        Assert.That(lines.Count(l => l.Contains("conflict   entry FONT/FONT0.FNT: essentials-font") && l.EndsWith("-> font-l10n wins")), Is.EqualTo(2), result.Out);
        Assert.That(lines.Where(l => l.StartsWith("not applied  ")).Select(l => l.Split(" not applied: ")[0]), Is.EquivalentTo(new[]
        {
            "not applied  font-l10n: 1 file(s) in FEmulator/L10N/es/",
            "not applied  script-only: 1 file(s) in bgme/",
            "not applied  script-only: 1 file(s) in FEmulator/BF/",
            "not applied  script-only: 1 file(s) in FEmulator/PAK/",
            "not applied  misspelled: 1 file(s) in CRIFsV2Hok/",
        }), result.Out);
    }

    [Test]
    public void BuildText_RulesLine_CountsTheFefRoutesInsideTheCpksEntries_NamingEachEntry()
    {
        var result = CliRun.Run(["build", .. GameAndMods()]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var rules = result.Out.Split('\n').Where(l => l.StartsWith("  rules      ")).Select(l => l["  rules      ".Length..].Split(", ")).ToList();
        Assert.That(rules, Has.Count.EqualTo(2), result.Out);
        Assert.That(rules[1], Is.SupersetOf(new[]
        {
            "FEmulator/PAK/field/pack/fd007_003.arc 1 entry in FIELD/PACK/FD007_003.ARC",
            "FEmulator/SPD/fd007.spd 1 entry in FIELD/PACK/FD007_003.ARC/fd007.spd",
            "FEmulator/AWB/BGM_42.AWB 1 entry in SOUND/BGM_42.AWB",
            "FEmulator/SPD/FONT/CHAT/CHAT.SPD 1 entry in FONT/CHAT/CHAT.SPD",
        }), result.Out);
    }

    [TestCase("CPK/BASE.CPK")]
    [TestCase("CPK/EN.CPK")]
    public void Cat_WithOnlyTheModsNothingOfWhichApplies_ServesTheOriginalCpkByteForByte(string cpk)
    {
        var output = _dir["alone.cpk"];
        var result = CliRun.Run("cat", "--game", PersonaSample.Game, "--mod", PersonaSample.Mod("script-only"), "--mod", PersonaSample.Mod("misspelled"),
            "--no-cache", cpk, "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(Path.Combine(PersonaSample.Game, cpk))), "in-game code files never change the game");
    }

    [TestCase("P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT")]
    [TestCase("CRIFsV2Hok/CPK/EN/FONT/FONT0.FNT")]
    [TestCase("bgme/battle.pme")]
    public void Cat_AFileOfAModsLayoutFolder_IsNoGameFile(string path)
    {
        var result = CliRun.Run(["cat", .. GameAndMods(path, "-o", _dir["stray"])]);
        Assert.That(result.ExitCode, Is.Not.Zero, result.ToString());
        // The full path is named as the platform writes it (backslashes on Windows).
        Assert.That(result.Error.Replace('\\', '/'), Does.Contain($"{path}: not found in the game folder or any mod"));
        Assert.That(File.Exists(_dir["stray"]), Is.False);
    }
}
