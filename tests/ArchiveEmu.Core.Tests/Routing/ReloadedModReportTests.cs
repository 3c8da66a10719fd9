using System.Text;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// What a Reloaded-II mod's report says, line by line (docs/DESIGN.md, "Reloaded-II and FEF mods", "What is not applied"): which
/// layout folders apply, and for everything else at the root or in <c>FEmulator/</c> the folder, its files in ordinal order and why.
/// The mod's metadata (ModConfig.json and every file its fields name) is in no line.
/// </summary>
public sealed class ReloadedModReportTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("reloaded-report");
        _dir.Write("game/data/x.arc", PakTestWriter.Write(V2, [("a.tmx", TestData.Random(1, 40))]));
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write([TestData.Random(2, 30)]));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void ACodeModWithEveryKindOfFile_IsReportedLineByLine_ItsMetadataInNone()
    {
        // Comments and a trailing comma, as Reloaded-II's own reader accepts; "ModName" names a root file but is no file field.
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""
            {
              // written by hand
              "ModId": "p5r.all", "ModName": "notes.txt",
              "ModDll": "x.dll", "ModR2RManagedDll32": "x86/x.dll", "ModR2RManagedDll64": "x64/x.dll",
              "ModNativeDll32": "n32.dll", "ModNativeDll64": "n64.dll", "ReleaseMetadataFileName": "rel.json", "ModIcon": "Icons/icon.png",
            }
            """));
        foreach (var metadata in new[] { "x.dll", "x86/x.dll", "x64/x.dll", "n32.dll", "n64.dll", "rel.json", "Icons/icon.png", "Preview.png",
                     "Sewer56.Update.ReleaseMetadata.json" })
            _dir.Write($"mod/{metadata}", [1]);
        _dir.Write("mod/README.md", [2]);
        _dir.Write("mod/notes.txt", [3]);
        _dir.Write("mod/Redirectr/data/x.bin", [4]); // a misspelled layout folder; depth first would list data/x.bin before data.bin
        _dir.Write("mod/Redirectr/data.bin", [5]);
        _dir.Write("mod/bgme/battle.pme", [6]);
        _dir.Write("mod/runtimes/win-x64/native/y.dll", [7]); // the code's own folder
        _dir.Write("mod/FEmulator/BF/f007.flow", Encoding.UTF8.GetBytes("void init_hook() { }"));
        _dir.Write("mod/FEmulator/XYZ/a.bin", [8]);
        _dir.Write("mod/FEmulator/readme.txt", [9]);
        _dir.Write("mod/FEmulator/PAK/x.arc/a.tmx", TestData.Random(3, 50));
        _dir.Write("mod/FEmulator/PAK/x.arc/f007.bf", []); // dummies for the script, in two layout folders
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/f007/f007.bf", []);
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/f007.bf", []);
        _dir.Write("mod/P5REssentials/CPK/f007.bf", []); // in no CPK's folder: the line names CPK/ itself
        var english = _dir.Write("mod/FEmulator/L10N/en/x.arc/a.tmx", TestData.Random(4, 60)); // replaces FEmulator/PAK's a.tmx
        _dir.Write("mod/AfsRedirector/voice.afs/0.adx", TestData.Random(5, 70));

        var plan = new ModRouter(_dir["game"], [_dir["mod"]]).Resolve();
        var report = plan.ModReports.Single();
        Assert.That(report.Applied, Is.EqualTo(new[] { "FEmulator/PAK", "AfsRedirector" }));
        Assert.That(report.Languages, Is.EqualTo(new[] { "FEmulator/L10N/en: 1 file(s)" }));
        const string notFEmulator = "no FEmulator folder ArchiveEmu reads (AFS, AWB, PAK, SPD, L10N; BF and BMD are compiled in the game)";
        const string dummies = "dummy files for scripts compiled in the game; the game's own file is served as it is";
        Assert.That(report.NotApplied.Select(n => (n.Folder, string.Join(",", n.Files), n.Reason)), Is.EqualTo(new[]
        {
            ("Redirectr", "data.bin,data/x.bin", "Redirectr/ is no layout folder ArchiveEmu knows (the closest is Redirector/)"),
            ("bgme", "battle.pme", "BGME music scripts, applied by BGME Framework's code inside the game"),
            ("runtimes", "win-x64/native/y.dll", "part of a code mod (ModConfig.json names its DLL), which runs only inside the game"),
            ("", "README.md,notes.txt", "files at a Reloaded-II mod's root are no game files, as in Reloaded-II (a code mod's DLLs run inside the game; "
                + "whole-file replacements go in Redirector/)"),
            ("FEmulator/BF", "f007.flow", "BF scripts that Persona Essentials (FileEmulationFramework's BF emulator) compiles into the game's BF files "
                + "inside the game process"),
            ("FEmulator/XYZ", "a.bin", notFEmulator),
            ("FEmulator", "readme.txt", notFEmulator),
            ("FEmulator/PAK", "x.arc/f007.bf", dummies),
            ("P5REssentials/CPK", "f007.bf", dummies),
            ("P5REssentials/CPK/EN.CPK", "f007.bf,f007/f007.bf", dummies),
        }));
        Assert.That(plan.Warnings, Does.Contain($"mod folder {_dir["mod/Redirectr"]}: Redirectr/ is no layout folder ArchiveEmu knows (the closest is "
            + "Redirector/); its 2 file(s) are not applied"));

        var pak = plan.FindArchive("data/x.arc")!.Patch.Changes.Single();
        Assert.That((pak.Key.ToString(), pak.Input!.Path), Is.EqualTo(("a.tmx", english)), "the language folder found FEmulator/PAK's file");
        Assert.That(plan.FindArchive("data/voice.afs")!.Patch.Changes.Single().Rule, Is.EqualTo("AfsRedirector/voice.afs"));
    }

    [Test]
    public void ACodeModAndNothingElse_IsOneLineNamingEveryDllItsConfigNames()
    {
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""
            { "ModId": "p5r.code", "ModDll": "x.dll", "ModR2RManagedDll32": "x86/x.dll", "ModR2RManagedDll64": "x64/x.dll",
              "ModNativeDll32": "n32.dll", "ModNativeDll64": "n64.dll" }
            """));
        foreach (var dll in new[] { "x.dll", "x86/x.dll", "x64/x.dll", "n32.dll", "n64.dll" })
            _dir.Write($"mod/{dll}", [1]);

        var line = new ModRouter(_dir["game"], [_dir["mod"]]).Resolve().NotApplied.Single();
        Assert.That((line.Folder, string.Join(",", line.Files), line.Reason), Is.EqualTo(("", "x.dll,x86/x.dll,x64/x.dll,n32.dll,n64.dll",
            "a code mod: its DLL runs only inside the game under Reloaded-II")));
    }

    [TestCase("CPK")]
    [TestCase("cpk")]
    public void APersonaEssentialsCpkFolderAtTheModsRoot_PointsToP5REssentials(string folder)
    {
        // Issue 48: the edit distance named "ryo/" for CPK/EN.CPK/… at the root; Essentials reads it in P5REssentials/CPK/.
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.font" }"""));
        _dir.Write($"mod/{folder}/EN.CPK/FONT/FONT0.FNT", [3]);

        var line = new ModRouter(_dir["game"], [_dir["mod"]]).Resolve().NotApplied.Single(n => n.Folder == folder);
        Assert.That(line.Reason, Is.EqualTo($"{folder}/ is no layout folder ArchiveEmu knows (the closest is P5REssentials/CPK/)"));
    }

    [TestCase("RedXrXctXr", true)] // 3 letters from Redirector's 10: a third, still a misspelling
    [TestCase("RedXrXXtXr", false)] // 4
    public void InACodeMod_AFolderWithinAThirdOfItsLettersOfALayout_IsAMisspelling_ElseTheCodesOwn(string folder, bool misspelled)
    {
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.code", "ModDll": "p5r.code.dll" }"""));
        _dir.Write("mod/p5r.code.dll", [1]);
        _dir.Write($"mod/{folder}/data/x.bin", [2]);

        var line = new ModRouter(_dir["game"], [_dir["mod"]]).Resolve().NotApplied.Single(n => n.Folder == folder);
        Assert.That(line.Reason, Is.EqualTo(misspelled ? $"{folder}/ is no layout folder ArchiveEmu knows (the closest is Redirector/)"
            : "part of a code mod (ModConfig.json names its DLL), which runs only inside the game"));
    }

    [TestCase("[ \"x.dll\" ]")]
    [TestCase("\"x.dll\"")]
    public void AModConfigThatIsNoObject_NamesNoFile_ItsRootFilesAreListed(string json)
    {
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes(json));
        _dir.Write("mod/x.dll", [1]);

        var plan = new ModRouter(_dir["game"], [_dir["mod"]]).Resolve();
        Assert.That(plan.Warnings, Is.EqualTo(new[] { $"mod folder {_dir["mod"]}: none of its files is applied by ArchiveEmu (they are listed as not applied, with why)" }));
        Assert.That(plan.NotApplied.Single().Files, Is.EqualTo(new[] { "x.dll" }));
    }

    [Test]
    public void TheClosestKnownFolder_MayBeOneOnlyCodeInTheGameReads()
    {
        Assert.That(ReloadedModLayout.Closest("costume"), Is.EqualTo("costumes"));
        Assert.That(ReloadedModLayout.Closest("BGM"), Is.EqualTo("bgme"));
    }
}
