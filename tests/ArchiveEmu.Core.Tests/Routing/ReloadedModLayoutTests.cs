using System.Text;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 31, how a mod's layout is recognised and reported (docs/DESIGN.md, "Reloaded-II and FEF mods", "What is not applied",
/// "Language folders"), on a game laid out like Persona 5 Royal's (<c>CPK/BASE.CPK</c>, <c>CPK/EN.CPK</c>); every served CPK is
/// re-read by the independent reader, entry by entry.
/// </summary>
public sealed class ReloadedModLayoutTests
{
    private static readonly byte[] Font = TestData.Random(1, 900), Script = TestData.Random(2, 300), Model = TestData.Random(3, 1200);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("reloaded-layout");
        _dir.Write("game/CPK/BASE.CPK", CpkTestWriter.WriteNamed([new("MODEL", "C0005.GMD", Model)]));
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT", "FONT0.FNT", Font), new("field", "f007.bf", Script)]));
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    private void Config(string mod) => _dir.Write($"{mod}/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.mod" }"""));

    [Test]
    public void AnEssentialsCpkFolder_ReplacesTheEntryInTheCpk_AndServesNoStrayGameFile()
    {
        Config("mod");
        var font = _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", TestData.Random(4, 1500));

        var plan = Resolve("mod");
        Assert.That(plan.Overrides, Is.Empty, "nothing of P5REssentials/ is a loose game file");
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.FindArchive("CPK/EN.CPK")!.Patch.Changes.Single().Rule, Is.EqualTo("P5REssentials/CPK/EN.CPK"));
        AssertCpk(plan, "CPK/EN.CPK", ("FONT/FONT0.FNT", File.ReadAllBytes(font)), ("field/f007.bf", Script));
        Assert.That(plan.ModReports.Single().Applied, Is.EqualTo(new[] { "P5REssentials/CPK" }));
    }

    [Test]
    public void AModWithBothCpkFolders_TakesTheEssentialsFile_AsTheHookProbesItLast()
    {
        Config("mod");
        _dir.Write("mod/CRIFsV2Hook/CPK/a/FONT/FONT0.FNT", TestData.Random(5, 10));
        var essentials = _dir.Write("mod/p5ressentials/cpk/b/font/font0.fnt", TestData.Random(6, 20));

        var plan = Resolve("mod");
        AssertCpk(plan, "CPK/EN.CPK", ("FONT/FONT0.FNT", File.ReadAllBytes(essentials)), ("field/f007.bf", Script));
        Assert.That(plan.Conflicts, Is.Empty, "within one mod the probing order decides, silently, as in the hook");
    }

    [Test]
    public void AModWithModConfig_ServesNothingFromItsRoot_AndReportsWhy()
    {
        Config("mod");
        _dir.Write("mod/README.md", [1]);
        _dir.Write("mod/data/readme.txt", [2]);
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", [3]);

        var plan = Resolve("mod");
        Assert.That(plan.Overrides, Is.Empty);
        var report = plan.ModReports.Single();
        Assert.That(report.Layout, Is.EqualTo(ModReport.ReloadedLayout));
        Assert.That(report.NotApplied.Select(n => (n.Folder, string.Join(",", n.Files))), Is.EquivalentTo(new[] { ("data", "readme.txt"), ("", "README.md") }));
    }

    [Test]
    public void AMisspelledLayoutFolder_IsOneWarningNamingTheClosestLayout_AndNoGameFile()
    {
        Config("mod");
        _dir.Write("mod/CRIFsV2Hok/CPK/EN.CPK/FONT/FONT0.FNT", [1]);

        var plan = Resolve("mod");
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("CRIFsV2Hok/").And.Contain("the closest is CRIFsV2Hook/").And.Contain("not applied"),
            "one warning: it already says the mod's files are not applied");
        Assert.That(plan.NotApplied.Single().Files, Is.EqualTo(new[] { "CPK/EN.CPK/FONT/FONT0.FNT" }));
    }

    [Test]
    public void ACodeModsOwnFolders_AreNotAppliedWithoutAWarning_ButAMisspelledLayoutStillIs()
    {
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.code", "ModDll": "p5r.code.dll" }"""));
        _dir.Write("mod/p5r.code.dll", [1]);
        _dir.Write("mod/runtimes/win-x64/native/x.dll", [2]);
        _dir.Write("mod/FEmulatr/PAK/init_free.bin/x.tmx", [3]);

        var plan = Resolve("mod");
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.NotApplied.Select(n => $"{n.Folder}:{string.Join(",", n.Files)}"),
            Is.EquivalentTo(new[] { "runtimes:win-x64/native/x.dll", "FEmulatr:PAK/init_free.bin/x.tmx", ":p5r.code.dll" }));
        Assert.That(plan.NotApplied.Single(n => n.Folder == "").Reason, Does.Contain("code mod"));
        Assert.That(plan.Warnings.Single(), Does.Contain("FEmulatr/").And.Contain("the closest is FEmulator/"), "one warning, for the misspelled layout only");
    }

    [Test]
    public void TheClosestLayout_IsFoundByEditDistance_LetterCaseAside()
    {
        Assert.That(ReloadedModLayout.Closest("CRIFsV2Hok"), Is.EqualTo("CRIFsV2Hook"));
        Assert.That(ReloadedModLayout.Closest("femulater"), Is.EqualTo("FEmulator"));
        Assert.That(ReloadedModLayout.Closest("P5REssential"), Is.EqualTo("P5REssentials"));
    }

    [Test]
    public void AModWithoutModConfigOrLayoutFolder_StillMirrorsTheGameFolder()
    {
        var exe = _dir.Write("mod/P5R.exe", [9, 9]);
        var plan = Resolve("mod");
        Assert.That(plan.Overrides.Single().SourcePath, Is.EqualTo(exe));
        Assert.That(plan.ModReports.Single().Layout, Is.EqualTo(ModReport.MirrorLayout));
    }

    [Test]
    public void AScriptCompiledInTheGame_AndItsDummy_AreNotApplied_AndTheGameFileStaysAsItIs()
    {
        Config("mod");
        _dir.Write("mod/FEmulator/BF/f007.flow", Encoding.UTF8.GetBytes("void init_hook() { }"));
        _dir.Write("mod/FEmulator/BMD/e722_103.msg", Encoding.UTF8.GetBytes("[msg x]"));
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/field/f007.bf", []); // Essentials' dummy: must not empty the game's f007.bf
        var font = _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", TestData.Random(7, 64));

        var plan = Resolve("mod");
        AssertCpk(plan, "CPK/EN.CPK", ("FONT/FONT0.FNT", File.ReadAllBytes(font)), ("field/f007.bf", Script));
        var notApplied = plan.NotApplied.ToDictionary(n => n.Folder, n => string.Join(",", n.Files));
        Assert.That(notApplied, Is.EquivalentTo(new Dictionary<string, string>
        {
            ["FEmulator/BF"] = "f007.flow",
            ["FEmulator/BMD"] = "e722_103.msg",
            ["P5REssentials/CPK/EN.CPK"] = "field/f007.bf",
        }));
        Assert.That(plan.Warnings, Is.Empty);
    }

    [Test]
    public void ADummyInAPak_ForAScriptInASubfolder_IsLeftOut_AndThePakIsNotChanged()
    {
        var v2 = PakTestLayout.All.First(l => l.Variant == "V2");
        _dir.Write("game/field/fd007_003.arc", PakTestWriter.Write(v2, [("f007.bf", Script), ("f007.bmd", Font)]));
        Config("mod");
        _dir.Write("mod/FEmulator/BF/field/fd007_003.arc/f007.msg", Encoding.UTF8.GetBytes("[msg x]")); // FEF: the game path contains the route
        _dir.Write("mod/FEmulator/BF/field/f007.flow", Encoding.UTF8.GetBytes("void x() { }")); // for a field/f007.bf, not this one
        _dir.Write("mod/FEmulator/PAK/fd007_003.arc/f007.bf", []);
        var bmd = _dir.Write("mod/FEmulator/PAK/fd007_003.arc/f007.bmd", TestData.Random(13, 30)); // no BMD script: a real replacement

        var plan = Resolve("mod");
        var pak = plan.FindArchive("field/fd007_003.arc")!;
        Assert.That(pak.Patch.Changes.Select(c => (c.Key.ToString(), c.Input!.Path)), Is.EqualTo(new[] { ("f007.bmd", bmd) }));
        Assert.That(plan.NotApplied.Single(n => n.Folder == "FEmulator/PAK").Files, Is.EqualTo(new[] { "fd007_003.arc/f007.bf" }));
        Assert.That(plan.NotApplied.Single(n => n.Folder == "FEmulator/BF").Files, Is.EqualTo(new[] { "field/f007.flow", "field/fd007_003.arc/f007.msg" }));
    }

    [Test]
    public void ABfWithoutAScript_IsAWholeReplacementAsAnyOther()
    {
        Config("mod");
        var bf = _dir.Write("mod/P5REssentials/CPK/EN.CPK/field/f007.bf", TestData.Random(8, 77));
        AssertCpk(Resolve("mod"), "CPK/EN.CPK", ("FONT/FONT0.FNT", Font), ("field/f007.bf", File.ReadAllBytes(bf)));
    }

    [Test]
    public void AModOfOnlyCodeFrameworkFiles_IsReportedAsApplyingNothing()
    {
        Config("mod");
        _dir.Write("mod/bgme/battle.pme", [1]);
        _dir.Write("mod/ryo/P5R/bgm/1.hca", [2]);
        _dir.Write("mod/costumes/Joker/costume.yaml", [3]);
        _dir.Write("mod/evt/evtFadeoutData.txt", "// major | minor | fade\n300 | 12 | 2\n"u8.ToArray());

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.ModReports.Single().AppliesNothing, Is.True);
        Assert.That(plan.NotApplied.Select(n => n.Line), Is.EqualTo(new[]
        {
            "mod: 1 file(s) in bgme/ not applied: BGME music scripts, applied by BGME Framework's code inside the game (battle.pme)",
            "mod: 1 file(s) in costumes/ not applied: Costume Framework costumes, applied by its code inside the game (Joker/costume.yaml)",
            "mod: 1 file(s) in evt/ not applied: event fade-out entries (evtFadeoutData.txt) that Event Fadeout Table Merging "
                + "(p5rpc.evt.fadeouttablemerge) applies with its code inside the game; a mod's EVENT/EVTFADEOUTTABLE.BIN is merged field by field (evtFadeoutData.txt)",
            "mod: 1 file(s) in ryo/ not applied: Ryo Framework audio and movies, applied by its code inside the game (P5R/bgm/1.hca)",
        }));
        Assert.That(plan.Warnings.Single(), Does.Contain("none of its files is applied"));
    }

    [Test]
    public void AFileIsADummyOnlyForAScriptItsGamePathCanHold()
    {
        Config("mod");
        _dir.Write("mod/FEmulator/BMD/event/e722_103.msg", Encoding.UTF8.GetBytes("[msg x]"));
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/event/e722_103.bmd", []); // the BMD emulator's dummy
        // The game path of f008.bf ends in "/f008.bf": it can never hold the route "field/xf008.flow".
        _dir.Write("mod/FEmulator/BF/field/xf008.flow", Encoding.UTF8.GetBytes("void x() { }"));
        var f008 = _dir.Write("mod/P5REssentials/CPK/EN.CPK/f008.bf", TestData.Random(15, 20));

        var plan = Resolve("mod");

        Assert.That(plan.FindArchive("CPK/EN.CPK")!.Patch.Changes.Select(c => (c.Key.ToString(), c.Input!.Path)), Is.EqualTo(new[] { ("f008.bf", f008) }));
        Assert.That(plan.NotApplied.Single(n => n.Folder == "P5REssentials/CPK/EN.CPK").Files, Is.EqualTo(new[] { "event/e722_103.bmd" }));
    }

    [TestCase("fr", 10)]
    [TestCase("FR", 10)]
    [TestCase("en", 0)]
    public void ALanguageFolder_ReplacesTheModsOwnFile_OnlyForThatLanguage(string language, int expected)
    {
        Config("mod");
        var own = _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", TestData.Random(0, 50));
        var fr = _dir.Write("mod/FEmulator/L10N/fr/FONT/FONT0.FNT", TestData.Random(10, 60));
        _dir.Write("mod/FEmulator/L10N/de/FONT/FONT0.FNT", TestData.Random(11, 70));

        var plan = ResolveIn(language, "mod");
        AssertCpk(plan, "CPK/EN.CPK", ("FONT/FONT0.FNT", File.ReadAllBytes(expected == 0 ? own : fr)), ("field/f007.bf", Script));
        Assert.That(plan.Warnings, Is.Empty);
        var languageFolders = plan.NotApplied.Where(n => n.Folder.StartsWith("FEmulator/L10N/")).ToArray();
        Assert.That(languageFolders.All(n => n.Quiet), Is.True, "another language's folder is a choice, not a problem");
        Assert.That(plan.ModReports.Single().Languages, expected == 0 ? Is.Empty : Is.EqualTo(new[] { "FEmulator/L10N/fr: 1 file(s)" }));
    }

    [Test]
    public void ALanguageFolderSpelledInAnotherCase_Applies_WithAWarningThatTheFrameworkWouldNot()
    {
        Config("mod");
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", [1]);
        var hans = _dir.Write("mod/FEmulator/L10N/ZH-HANS/FONT/FONT0.FNT", TestData.Random(12, 40));

        var plan = ResolveIn("zh-Hans", "mod");
        AssertCpk(plan, "CPK/EN.CPK", ("FONT/FONT0.FNT", File.ReadAllBytes(hans)), ("field/f007.bf", Script));
        Assert.That(plan.Warnings.Single(), Does.Contain("ZH-HANS").And.Contain("only spelled zh-Hans"));
    }

    [Test]
    public void ALanguageFileMatchingNoFileOfTheMod_IsWarnedAbout_AndAddsNothing()
    {
        Config("mod");
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", [1]);
        _dir.Write("mod/FEmulator/L10N/fr/MODEL/C0005.GMD", [2]);

        var plan = ResolveIn("fr", "mod");
        Assert.That(plan.FindArchive("CPK/BASE.CPK"), Is.Null, "the game's own files are not the framework's to replace");
        Assert.That(plan.Warnings.Single(), Does.Contain("FEmulator/L10N/fr").And.Contain("MODEL/C0005.GMD"));
    }

    private RoutePlan Resolve(params string[] mods) => ResolveIn("en", mods);

    private RoutePlan ResolveIn(string language, params string[] mods) =>
        new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()) { Language = language }.Resolve();

    private void AssertCpk(RoutePlan plan, string route, params (string Path, byte[] Content)[] expected)
    {
        using var built = plan.FindArchive(route)!.Build();
        var bytes = new byte[built.File.Length];
        built.File.ReadExactly(0, bytes);
        var read = CpkIndependentReader.Read(_dir.Write($"served-{Guid.NewGuid():N}.cpk", bytes));
        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)), Is.EqualTo(expected.Select(e => (e.Path, AfsIndependentReader.Sha256(e.Content)))));
    }
}
