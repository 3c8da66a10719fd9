using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>
/// Issue 32, a Reloaded-II setup read as it is (docs/RELOADED-II.md) from a fake Proton prefix: Windows paths through the prefix's
/// drive links (the app on Z:, the launcher and mods on an SD card E:), Reloaded-II's load order with dependencies, and the report.
/// </summary>
public sealed class ReloadedSetupTests
{
    private TempDirectory _dir = null!;
    private FakeProtonPrefix _p = null!;

    [SetUp]
    public void CreateSetup()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _dir = new TempDirectory("reloaded-setup");
        _p = new FakeProtonPrefix(_dir.Path);
        // Spelled in other letter cases than on disk (P5R/P5R.exe), as Windows allows.
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Library, "steamapps/common/p5r/p5r.EXE")), "hd", "ui", "gone", "needs.missing", "plain");
        FakeProtonPrefix.WriteFile(_p.Mod("hd-textures", "hd", "HD Textures", "2.1.0", ["base"]), "Redirector/data/a.bin", [1]);
        FakeProtonPrefix.WriteFile(_p.Mod("Group/ui-fix", "ui", "UI Fix", "1.0.3", ["framework"], dll: "UiFix.dll"), "Redirector/data/b.bin", [2]);
        FakeProtonPrefix.WriteFile(_p.Mod("base", "base", "Base Textures", "0.9.0"), "Redirector/data/c.bin", [3]);
        _p.Mod("framework", "Framework", "Some Framework", "1.2.0", dll: "Framework.dll");
        FakeProtonPrefix.WriteFile(_p.Mod("needs-missing", "needs.missing", "Needs Missing", "1.0.0", ["not.there"]), "FEmulator/AFS/x.afs/1.bin", [4]);
        _p.Mod("plain", "plain", "Plain", "1.0.0");
        FakeProtonPrefix.WriteFile(_p.Mod("off", "off", "Turned Off", "3.0.0"), "Redirector/data/d.bin", [5]);
        _p.Mod("other", "other", "Other Game's Mod", "1.0.0", supportedAppIds: ["sonic.exe"]);
    }

    [TearDown]
    public void DeleteSetup() => _dir?.Dispose();

    private ReloadedSetup Read() => ReloadedSetup.Read(_p.Game, new ReloadedLocation(_p.ConfigFolder, _p.Prefix, "--reloaded-dir"));

    [Test]
    public void Read_ProtonPrefixWithDependencies_TakesTheFileModsInReloadedIIsLoadOrder()
    {
        var setup = Read();

        Assert.That(setup.Folders, Is.EqualTo(new ReloadedFolders(_p.Apps, _p.Mods)), "E: mapped through dosdevices/e:");
        Assert.That(setup.App.MappedLocation, Is.EqualTo(Path.Combine(_p.Game, "P5R.exe")), "Z: mapped to /, names matched ignoring case");
        Assert.That(setup.LoadOrder.Mods.Select(m => m.Mod.Id), Is.EqualTo(new[] { "base", "hd", "Framework", "ui", "needs.missing", "plain" }));
        Assert.That(setup.ModFolders, Is.EqualTo(new[] { "base", "hd-textures", "Group/ui-fix", "needs-missing" }.Select(f => Path.Combine(_p.Mods, f))));
    }

    /// <summary>Issue 50: Metaphor's app (AppLocation ...\METAPHOR.exe, written in another letter case) is found by its location, as P5R's is.</summary>
    [TestCase(@"steamapps/common/metaphor/Metaphor.EXE")]
    [TestCase(@"steamapps/common/METAPHOR/METAPHOR.exe")]
    public void Read_MetaphorsApp_IsFoundByItsLocationInAnyLetterCase(string location)
    {
        var metaphor = new FakeProtonPrefix(_dir["metaphor"], "METAPHOR");
        metaphor.App("metaphor.exe", FakeProtonPrefix.OnZ(Path.Combine(metaphor.Library, location)), "mf.tables");
        var mod = metaphor.Mod("mf-tables", "mf.tables", "MF Tables", "1.0.0", ["mrfpc.modloader"], supportedAppIds: ["metaphor.exe"]);
        FakeProtonPrefix.WriteFile(mod, "MFEssentials/CPK/Tables/COMMON/battle/table/Skill.tbl", [1, 2, 3, 4]);

        var setup = ReloadedSetup.Read(metaphor.Game, new ReloadedLocation(metaphor.ConfigFolder, metaphor.Prefix, "--reloaded-dir"));

        Assert.That(setup.App.MappedLocation, Is.EqualTo(Path.Combine(metaphor.Game, "METAPHOR.exe")));
        Assert.That(setup.ModFolders, Is.EqualTo(new[] { mod }));
    }

    [Test]
    public void ReportLines_NameEveryModTakenAndSkippedWithItsReason()
    {
        var setup = Read();
        string Mod(string folder) => Path.Combine(_p.Mods, folder);

        Assert.That(setup.ReportLines(), Is.EqualTo(new[]
        {
            $"reloaded   {_p.ConfigFolder} (--reloaded-dir)",
            $"reloaded   app p5r.exe (Persona 5 Royal): {FakeProtonPrefix.OnZ(Path.Combine(_p.Library, "steamapps/common/p5r/p5r.EXE"))} -> {Path.Combine(_p.Game, "P5R.exe")}",
            $"reloaded   mods {_p.Mods}",
            $"mod 1      Base Textures 0.9.0  {Mod("base")}  (not enabled: a dependency of HD Textures)",
            $"mod 2      HD Textures 2.1.0  {Mod("hd-textures")}",
            $"mod 3      UI Fix 1.0.3  {Mod("Group/ui-fix")}  (its code, UiFix.dll, needs Reloaded-II inside the game)",
            $"mod 4      Needs Missing 1.0.0  {Mod("needs-missing")}",
            $"skipped    gone: enabled but not installed (no ModConfig.json with this ModId under {_p.Mods})",
            $"skipped    Some Framework 1.2.0 ({Mod("framework")}): code only (Framework.dll): it needs Reloaded-II inside the game; no folder ArchiveEmu serves",
            $"skipped    Plain 1.0.0 ({Mod("plain")}): no file ArchiveEmu can serve (no Redirector/, FEmulator/, AfsRedirector/, CRIFsV2Hook/, P5REssentials/, MFEssentials/ folder)",
            $"skipped    Turned Off 3.0.0 ({Mod("off")}): disabled in Reloaded-II",
            "reloaded   1 installed mod for other apps not listed",
        }));
        Assert.That(setup.Warnings, Is.EqualTo(new[]
        {
            $"{Path.Combine(_p.Apps, "p5r.exe", "AppConfig.json")}: enables gone, which is not installed under {_p.Mods}",
            $"Needs Missing needs not.there, which is not installed under {_p.Mods}; Reloaded-II itself refuses to load any mod until it is",
        }));
    }

    [Test]
    public void Read_TheSameModIdTwice_KeepsTheLastListedAsReloadedIIDoes()
    {
        FakeProtonPrefix.WriteFile(_p.Mod("zz-hd-copy", "hd", "HD Textures", "2.2.0", ["base"]), "Redirector/data/a.bin", [9]);

        var setup = Read();

        Assert.That(setup.ModFolders, Does.Contain(Path.Combine(_p.Mods, "zz-hd-copy")).And.Not.Contain(Path.Combine(_p.Mods, "hd-textures")));
        Assert.That(setup.Skipped.Select(s => (s.Folder, s.Reason)), Does.Contain(((string?)Path.Combine(_p.Mods, "hd-textures"),
            $"same ModId as {Path.Combine(_p.Mods, "zz-hd-copy")}, which Reloaded-II uses")));
    }

    [Test]
    public void Read_AnEnabledDependencyListedLater_IsLoadedBeforeTheModThatNeedsIt()
    {
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe")), "hd", "ui", "base");

        Assert.That(Read().LoadOrder.Mods.Select(m => (m.Mod.Id, m.Enabled)),
            Is.EqualTo(new[] { ("base", true), ("hd", true), ("Framework", false), ("ui", true) }));
    }

    [Test]
    public void Read_DependenciesInACycle_LoadsEachOnce()
    {
        _p.Mod("base", "base", "Base Textures", "0.9.0", ["hd"]);

        Assert.That(Read().LoadOrder.Mods.Select(m => m.Mod.Id).Take(2), Is.EqualTo(new[] { "base", "hd" }));
    }

    [Test]
    public void Read_NoAppRunsAProgramOfTheGame_FailsListingTheApps()
    {
        _p.App("p5r.exe", @"Z:\elsewhere\P5R.exe", "hd");

        var e = Assert.Throws<IOException>(() => Read());

        Assert.That(e!.Message, Is.EqualTo($"{_p.Apps}: no Reloaded-II app runs a program in the game folder {_p.Game}; its apps: p5r.exe runs Z:\\elsewhere\\P5R.exe (/elsewhere/P5R.exe)"));
    }

    [Test]
    public void Read_AFolderThatMapsToNothing_SaysWhereItLed()
    {
        // Issue 48: "ApplicationConfigDirectory cannot be used ()": the Windows path mapped, to a folder that is not there.
        Directory.Delete(_p.Apps, recursive: true);

        var e = Assert.Throws<IOException>(() => Read());

        Assert.That(e!.Message, Is.EqualTo($"{Path.Combine(_p.ConfigFolder, "ReloadedII.json")}: ApplicationConfigDirectory cannot be used (E:\\Reloaded-II\\Apps "
            + $"is {_p.Apps} here, which is not a folder), and there is no Apps/ beside the launcher ({_p.Launcher})"));
    }

    [Test]
    public void Read_ADriveWithoutALink_FailsNamingTheMissingLink()
    {
        File.Delete(Path.Combine(_p.Prefix, "dosdevices", "e:"));

        var e = Assert.Throws<IOException>(() => Read());

        Assert.That(e!.Message, Is.EqualTo($"{Path.Combine(_p.ConfigFolder, "ReloadedII.json")}: ApplicationConfigDirectory cannot be used (drive E: of E:\\Reloaded-II\\Apps "
            + $"has no link {Path.Combine(_p.Prefix, "dosdevices", "e:")}), and there is no Apps/ beside the launcher (LauncherPath is not set or not mapped)"));
    }

    [Test]
    public void Read_PortableTxtBesideTheLauncher_UsesItsAppsAndModsWhateverReloadedIIJsonSays()
    {
        var elsewhere = Path.Combine(_p.SdCard, "Elsewhere");
        Directory.CreateDirectory(elsewhere);
        File.WriteAllText(Path.Combine(_p.ConfigFolder, "ReloadedII.json"),
            """{ "LauncherPath": "E:\\Reloaded-II\\Reloaded-II.exe", "ApplicationConfigDirectory": "E:\\Elsewhere", "ModConfigDirectory": "E:\\Elsewhere" }""");
        File.WriteAllText(Path.Combine(_p.Launcher, "portable.txt"), "");

        Assert.That(Read().Folders, Is.EqualTo(new ReloadedFolders(_p.Apps, _p.Mods)));
    }

    [Test]
    public void Read_APortableFolder_ReadsItsAppsAndMods()
    {
        var setup = ReloadedSetup.Read(_p.Game, new ReloadedLocation(_p.Launcher, null, "--reloaded-dir"));

        Assert.That(setup.ModFolders, Has.Length.EqualTo(4));
    }

    [Test]
    public void DoubleApplicationWarning_AFileModAlsoLoadedWithItsReaderInReloadedII_SaysItIsAppliedTwice()
    {
        _p.Mod("fef", "reloaded.universal.fileemulationframework", "File Emulation Framework", "1.0.0", dll: "FileEmulationFramework.dll");
        _p.Mod("needs-missing", "needs.missing", "Needs Missing", "1.0.0", ["reloaded.universal.fileemulationframework"]);
        var setup = Read();
        string Expected(string how) => "Reloaded-II app p5r.exe also loads Needs Missing with File Emulation Framework: " + how
            + "it applies their files a second time over what ArchiveEmu serves (an SPD's new textures appended twice); "
            + "disable them in Reloaded-II and give them with --mod, or start the game without Reloaded-II (docs/RELOADED-II.md)";

        Assert.That(setup.DoubleApplicationWarning(setup.ModFolders, _p.Game), Is.Null, "Reloaded-II is not in the game: nothing is applied twice");
        var asi = FakeProtonPrefix.WriteFile(_p.Game, "scripts/Reloaded.Mod.Loader.Bootstrapper.asi", [0]);
        Assert.That(setup.DoubleApplicationWarning(setup.ModFolders, _p.Game), Is.EqualTo(Expected($"Reloaded-II is injected in this game ({asi}), so ")));
        Assert.That(setup.DoubleApplicationWarning([Path.Combine(_p.Mods, "hd-textures")], _p.Game), Is.Null, "Redirector/ is read by no mod this app loads");
    }
}
