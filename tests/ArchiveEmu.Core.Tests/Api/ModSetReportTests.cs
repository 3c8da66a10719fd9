using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 31, "the library API gets the same layouts, merges and language choice": <see cref="ArchiveEmulator.Report"/> for the
/// P5R-like sample (fixtures/persona, its eleven mods in the fixture script's order). Expectations are facts of the fixture
/// stated here (its file names, the bytes its table mods change), never another run of the product's code.
/// </summary>
public sealed class ModSetReportTests
{
    private const string UnitTable = "BATTLE/TABLE/UNIT.TBL";

    private static ArchiveEmulator Emulator(string? language = null)
    {
        var emulator = new ArchiveEmulator(PersonaSample.Game, new ArchiveEmulatorOptions { Language = language });
        foreach (var mod in PersonaSample.Mods)
            emulator.AddModFolder(mod);
        return emulator;
    }

    private static ModFolderReport ModNamed(ModSetReport report, string name) => report.Mods.Single(m => m.Name == name);

    private static (string, string, bool)[] NotApplied(ModFolderReport mod) =>
        mod.NotApplied.Select(n => (n.Folder, string.Join(",", n.Files), n.Quiet)).ToArray();

    [Test]
    public void Report_ListsEveryModFolder_InTheOrderAdded_EachAReloadedIIModAtItsFullPath()
    {
        using var emulator = Emulator();
        var mods = emulator.Report().Mods;
        Assert.That(mods.Select(m => m.Name), Is.EqualTo(PersonaSample.ModNames));
        Assert.That(mods.Select(m => m.Folder), Is.EqualTo(PersonaSample.Mods.Select(Path.GetFullPath)));
        Assert.That(mods.Select(m => m.Layout), Has.All.EqualTo(ModFolderLayout.ReloadedII), "every fixture mod has a ModConfig.json");
    }

    [TestCase("essentials-font", "P5REssentials/CPK")]
    [TestCase("crifs-model", "CRIFsV2Hook/CPK")]
    [TestCase("unit-strength", "CRIFsV2Hook/CPK")]
    [TestCase("field-edit", "FEmulator/PAK")]
    [TestCase("bgm-42", "FEmulator/AWB")]
    public void Report_AModWithOneLayoutFolder_AppliesThatFolder_AndNothingIsLeftOut(string mod, string folder)
    {
        using var emulator = Emulator();
        var report = ModNamed(emulator.Report(), mod);
        Assert.That(report.AppliedFolders, Is.EqualTo(new[] { folder }));
        Assert.That(report.NotApplied, Is.Empty);
        Assert.That(report.AppliesNothing, Is.False);
    }

    [Test]
    public void Report_TheScriptOnlyMod_ListsItsScriptsAndDummyBfAsNotApplied_WithWhy_AndAppliesNothing()
    {
        using var emulator = Emulator();
        var report = emulator.Report();
        var scripts = ModNamed(report, "script-only");
        Assert.That(NotApplied(scripts), Is.EquivalentTo(new[]
        {
            ("bgme", "battle.pme", false),
            ("FEmulator/BF", "f007.flow", false),
            ("FEmulator/PAK", "field/pack/fd007_003.arc/f007.bf", false),
        }));
        var bf = scripts.NotApplied.Single(n => n.Folder == "FEmulator/BF");
        Assert.That(bf.Reason, Does.Contain("Persona Essentials").And.Contain("compiles"), "a flow script is compiled inside the game");
        Assert.That(scripts.NotApplied.Single(n => n.Folder == "bgme").Reason, Does.Contain("BGME"));
        Assert.That(scripts.AppliesNothing, Is.True);
        Assert.That(report.Warnings, Has.One.Contains("script-only: none of its files is applied"), "a mod made only of in-game code is reported");
    }

    [Test]
    public void Report_TheMisspelledLayoutFolder_IsAWarningNamingCRIFsV2Hook_AndItsFileIsNotApplied()
    {
        using var emulator = Emulator();
        var report = emulator.Report();
        Assert.That(report.Warnings, Has.One.Contains("CRIFsV2Hok/ is no layout folder ArchiveEmu knows (the closest is CRIFsV2Hook/)"));
        Assert.That(NotApplied(ModNamed(report, "misspelled")), Is.EqualTo(new[] { ("CRIFsV2Hok", "CPK/EN/FONT/FONT0.FNT", false) }));
    }

    [Test]
    public void Report_UnitTbl_IsMergedFromUnitHpAndUnitStrength_EachWithTheFieldsItsFileChanges()
    {
        using var emulator = Emulator();
        var table = emulator.Report().Tables.Single();
        Assert.That((table.Path, table.Archive, table.Table), Is.EqualTo(($"CPK/EN.CPK/{UnitTable}", "CPK/EN.CPK", UnitTable)));
        var hp = ChangedFields("unit-hp", "P5REssentials/CPK/EN.CPK", enemy: 1, from: 4);
        var strength = ChangedFields("unit-strength", "CRIFsV2Hook/CPK/EN", enemy: 3, from: 8);
        Assert.That(table.Mods.Select(m => (m.Mod, m.Fields, m.FieldsKept)), Is.EqualTo(new[] { ("unit-hp", hp, hp), ("unit-strength", strength, strength) }));
        Assert.That(table.Conflicts, Is.Empty, "the two mods change different enemies");
        Assert.That(table.NotApplied, Is.Empty);
    }

    [Test]
    public void Report_TheFontBothFontModsChange_IsAConflictInEachCpk_FontL10nWins()
    {
        using var emulator = Emulator();
        var conflicts = emulator.Report().Conflicts.Select(c => (c.Target, c.Entry, string.Join(",", c.Mods), c.Winner));
        Assert.That(conflicts, Is.EquivalentTo(new[]
        {
            ("CPK/BASE.CPK", "FONT/FONT0.FNT", "essentials-font,font-l10n", "font-l10n"),
            ("CPK/EN.CPK", "FONT/FONT0.FNT", "essentials-font,font-l10n", "font-l10n"),
        }));
    }

    [Test]
    public void Report_WithoutALanguage_IsEnglishByDefault_AndTheSpanishFolderIsListedQuietly()
    {
        using var emulator = Emulator();
        var report = emulator.Report();
        Assert.That(report.Language, Is.EqualTo(new ModSetLanguage("en", "default: ArchiveEmulatorOptions.Language not set")));
        var l10n = ModNamed(report, "font-l10n");
        Assert.That(l10n.LanguageFolders, Is.Empty);
        Assert.That(NotApplied(l10n), Is.EqualTo(new[] { ("FEmulator/L10N/es", "FONT0.FNT", true) }), "another language's folder is a choice, not a problem");
    }

    [Test]
    public void Report_WithLanguageEs_SaysTheOptionChoseIt_AndAppliesFontL10nsSpanishFolder()
    {
        using var emulator = Emulator("es");
        var report = emulator.Report();
        Assert.That(report.Language, Is.EqualTo(new ModSetLanguage("es", "ArchiveEmulatorOptions.Language")));
        var l10n = ModNamed(report, "font-l10n");
        Assert.That(l10n.LanguageFolders, Is.EqualTo(new[] { "FEmulator/L10N/es: 1 file(s)" }));
        Assert.That(l10n.NotApplied, Is.Empty);
    }

    [Test]
    public void Report_AfterAModFolderIsRemoved_NoLongerHasItsModItsWarningOrItsTableFields()
    {
        using var emulator = Emulator();
        Assert.That(emulator.Report().Tables.Single().Mods.Select(m => m.Mod), Does.Contain("unit-strength"), "first read: the report is resolved");

        Assert.That(emulator.RemoveModFolder(PersonaSample.Mod("script-only")), Is.True);
        Assert.That(emulator.RemoveModFolder(PersonaSample.Mod("unit-strength")), Is.True);
        var report = emulator.Report();

        Assert.That(report.Mods.Select(m => m.Name), Is.EqualTo(PersonaSample.ModNames.Except(["script-only", "unit-strength"])));
        Assert.That(report.Warnings, Has.None.Contains("script-only"));
        Assert.That(report.Tables.SelectMany(t => t.Mods).Select(m => m.Mod), Has.None.EqualTo("unit-strength"));
    }

    [Test]
    public void Report_AfterAnInputAddedInCode_HasItWinTheFontConflictInItsCpk_UnderTheOriginItWasGiven()
    {
        using var emulator = Emulator();
        emulator.AddBytes("CPK/EN.CPK", EntryKey.ByName("FONT/FONT0.FNT"), new byte[] { 1, 2, 3 }, "loader");
        var en = emulator.Report().Conflicts.Single(c => c.Target == "CPK/EN.CPK");
        Assert.That((en.Entry, en.Mods, en.Winner), Is.EqualTo(("FONT/FONT0.FNT", new[] { "essentials-font", "font-l10n", "loader" }, "loader")));
    }

    [Test]
    public void Report_AModWithoutModConfigJson_MirrorsTheGameFolder_AndNamesNoLayoutFolder()
    {
        using var folder = new TempDirectory("report-mirror");
        folder.Write("loose-exe/P5R.exe", [0x4D, 0x5A]);
        using var emulator = new ArchiveEmulator(PersonaSample.Game);
        emulator.AddModFolder(folder["loose-exe"]);
        var mod = emulator.Report().Mods.Single();
        Assert.That((mod.Name, mod.Layout, mod.AppliedFolders), Is.EqualTo(("loose-exe", ModFolderLayout.Mirror, new[] { "mirror" })));
        Assert.That(mod.NotApplied, Is.Empty);
    }

    [Test]
    public void Report_AfterDispose_IsRefused()
    {
        var emulator = Emulator();
        emulator.Dispose();
        Assert.That(() => emulator.Report(), Throws.TypeOf<ObjectDisposedException>());
    }

    /// <summary>
    /// The fields <paramref name="mod"/>'s UNIT.TBL changes from the original: the bytes that differ, each its own field, since
    /// Persona Essentials' P5R EnemyUnitStatsResolver keeps offsets 2–5 and 8–15 of a 68-byte enemy record as single bytes.
    /// Checks they all lie in the two bytes of the u16 the fixture script wrote at <paramref name="from"/> of <paramref name="enemy"/>.
    /// </summary>
    private static int ChangedFields(string mod, string cpkFolder, int enemy, int from)
    {
        var original = PersonaSample.Entries(Path.Combine(PersonaSample.Game, "CPK/EN.CPK"))[UnitTable];
        var edited = File.ReadAllBytes(Path.Combine(PersonaSample.Mod(mod), cpkFolder, UnitTable));
        Assert.That(edited, Has.Length.EqualTo(original.Length), $"{mod} changes values, not sizes");
        var changed = Enumerable.Range(0, original.Length).Where(i => original[i] != edited[i]).ToArray();
        int field = 4 + enemy * 68 + from; // after segment 0's 4-byte length
        Assert.That(changed, Is.Not.Empty.And.SubsetOf(new[] { field, field + 1 }), $"{mod}: the bytes it changes");
        return changed.Length;
    }
}
