using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 19, "The Reloaded-II / FEF mod layout, as is": a mod with FEmulator/ (or Redirector/, AfsRedirector/) at its root is read
/// by FileEmulationFramework's and Reloaded-II's published rules (docs/DESIGN.md, "Reloaded-II and FEF mods").
/// </summary>
public sealed class FefLayoutTests
{
    private static readonly FakeFormat Afs = new(EntryAddressing.ByIndex, StringComparer.Ordinal, "afs");
    private static readonly FakeFormat Awb = new(EntryAddressing.ByIndex, StringComparer.Ordinal, "awb");
    private static readonly FakeFormat Pak = new(EntryAddressing.ByName, StringComparer.Ordinal, "pak");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("fef-layout");
        _dir.Write("game/English/Sound.afs", [1]);
        _dir.Write("game/Japanese/Sound.afs", [2]);
        _dir.Write("game/data/bgm.awb", [3]);
        _dir.Write("game/data/init_free.bin", [4]);
        _dir.Write("game/data/readme.txt", [5]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Resolve_RouteOfAnArchiveName_AppliesToEveryGameArchiveOfThatName()
    {
        _dir.Write("a/FEmulator/AFS/Sound.afs/3.adx", [9]);
        var plan = Resolve("a");
        Assert.That(plan.Archives.Select(r => r.RelativePath), Is.EqualTo(new[] { "English/Sound.afs", "Japanese/Sound.afs" }));
        foreach (var route in plan.Archives)
        {
            var change = route.Patch.Changes.Single();
            Assert.That((change.Key, change.Origin, change.Rule), Is.EqualTo((EntryKey.ByIndex(3), "a", "FEmulator/AFS/Sound.afs")));
        }
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.Warnings, Is.Empty);
    }

    [Test]
    public void Resolve_Route_ReachesAnArchiveBehindASymlinkedGameFolder()
    {
        LinuxOnly.RequireSymlinks();
        _dir.Write("elsewhere/voice/Sound.afs", [7]);
        Directory.CreateSymbolicLink(_dir["game/Moved"], _dir["elsewhere/voice"]);
        Directory.CreateSymbolicLink(_dir["game/data/loop"], _dir["game"]);
        _dir.Write("a/FEmulator/AFS/Moved/Sound.afs/1.adx", [1]);
        var route = Resolve("a").Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("Moved/Sound.afs"));
    }

    [Test]
    public void Resolve_RouteWithAFolder_AppliesOnlyToTheArchiveUnderIt()
    {
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/3.adx", [9]);
        Assert.That(Resolve("a").Archives.Select(r => r.RelativePath), Is.EqualTo(new[] { "English/Sound.afs" }));
    }

    [Test]
    public void Resolve_RouteInAnyLetterCase_MatchesAndIsServedInTheGamesSpelling()
    {
        _dir.Write("a/femulator/afs/ENGLISH/SOUND.AFS/3.adx", [9]);
        var route = Resolve("a").Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("English/Sound.afs"));
        Assert.That(route.GamePath, Is.EqualTo(_dir["game/English/Sound.afs"]));
        Assert.That(route.Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/AFS/ENGLISH/SOUND.AFS"));
    }

    [Test]
    public void Resolve_PartialRoute_MatchesTheEndOfTheGamePath_AsFefAllows()
    {
        _dir.Write("a/FEmulator/AFS/nglish/Sound.afs/4.adx", [9]);
        _dir.Write("b/FEmulator/AFS/game/Japanese/Sound.afs/4.adx", [9]);
        Assert.That(Resolve("a").Archives.Select(r => r.RelativePath), Is.EqualTo(new[] { "English/Sound.afs" }));
        Assert.That(Resolve("b").Archives.Select(r => r.RelativePath), Is.EqualTo(new[] { "Japanese/Sound.afs" }),
            "the game folder's own name is part of the full path FEF matches");
    }

    [Test]
    public void Resolve_WithinOneMod_TheLongerRouteWinsAnEntry_WithoutAConflict()
    {
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/3.adx", [1]);
        _dir.Write("a/FEmulator/AFS/Sound.afs/3.adx", [2]);
        var plan = Resolve("a");
        var english = plan.FindArchive("English/Sound.afs")!.Patch.Changes.Single();
        var japanese = plan.FindArchive("Japanese/Sound.afs")!.Patch.Changes.Single();
        Assert.That((english.Input!.Path, english.Rule), Is.EqualTo((_dir["a/FEmulator/AFS/English/Sound.afs/3.adx"], "FEmulator/AFS/English/Sound.afs")));
        Assert.That((japanese.Input!.Path, japanese.Rule), Is.EqualTo((_dir["a/FEmulator/AFS/Sound.afs/3.adx"], "FEmulator/AFS/Sound.afs")));
        Assert.That(plan.Conflicts, Is.Empty);
    }

    [Test]
    public void Resolve_WithinOneMod_ThreeRoutesForOneEntry_TheLongestWins_InWhateverOrderTheyAreMet()
    {
        // Met in ordinal order: Sound.afs, a/voice/Sound.afs (the longest, replacing the first), then voice/Sound.afs.
        _dir.Write("game/a/voice/Sound.afs", [6]);
        _dir.Write("a/FEmulator/AFS/Sound.afs/3.adx", [1]);
        var longest = _dir.Write("a/FEmulator/AFS/a/voice/Sound.afs/3.adx", [2]);
        _dir.Write("a/FEmulator/AFS/voice/Sound.afs/3.adx", [3]);
        var plan = Resolve("a");
        var change = plan.FindArchive("a/voice/Sound.afs")!.Patch.Changes.Single();
        Assert.That((change.Input!.Path, change.Rule), Is.EqualTo((longest, "FEmulator/AFS/a/voice/Sound.afs")));
        Assert.That(plan.Conflicts, Is.Empty);
    }

    [Test]
    public void Resolve_WithinOneMod_TwoRoutesOfEqualLengthForOneEntry_AreAnError()
    {
        _dir.Write("a/FEmulator/AFS/Sound.afs/3.adx", [1]);
        _dir.Write("a/AfsRedirector/Sound.afs/3_other.adx", [2]);
        var error = Assert.Throws<IOException>(() => Resolve("a"));
        Assert.That(error!.Message, Does.Contain("ambiguous"));
    }

    [Test]
    public void Resolve_WithinOneMod_ARedirectorPathWinsAnEntry_OverTheLongestFemulatorRoute()
    {
        var redirected = _dir.Write("a/Redirector/English/Sound.afs/3.adx", [1]);
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/3.adx", [2]);
        var plan = Resolve("a");
        var change = plan.FindArchive("English/Sound.afs")!.Patch.Changes.Single();
        Assert.That((change.Input!.Path, change.Rule), Is.EqualTo((redirected, ModRules.Redirector)));
        Assert.That(plan.Conflicts, Is.Empty);
    }

    [TestCase("FEmulator/AFS/English/Sound.afs", "English/Sound.afs")]
    [TestCase("FEmulator/AWB/bgm.awb", "data/bgm.awb")]
    public void Resolve_FefHasNoDeletion_ADotDelFileReplacesItsEntry(string route, string archive)
    {
        var del = _dir.Write($"a/{route}/5.del", [7]);
        var change = Resolve("a").FindArchive(archive)!.Patch.Changes.Single();
        Assert.That((change.Key, change.IsDelete, change.Input?.Path), Is.EqualTo((EntryKey.ByIndex(5), false, del)));
    }

    [Test]
    public void Resolve_TwoModsForOneEntry_TheLaterWins_AndTheConflictNamesEachRule()
    {
        _dir.Write("a/English/Sound.afs/3.adx", [1]);
        _dir.Write("b/FEmulator/AFS/Sound.afs/3.adx", [2]);
        var plan = Resolve("a", "b");
        var change = plan.FindArchive("English/Sound.afs")!.Patch.Changes.Single();
        Assert.That((change.Origin, change.Rule), Is.EqualTo(("b", "FEmulator/AFS/Sound.afs")));
        var conflict = plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("English/Sound.afs", "3", "b")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "mirror", "FEmulator/AFS/Sound.afs" }));
    }

    [Test]
    public void Resolve_LegacyAfsRedirectorFolder_IsReadAsFemulatorAfs()
    {
        _dir.Write("a/AfsRedirector/Sound.afs/2.adx", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Archives.Select(r => r.Patch.Changes.Single().Rule), Is.EqualTo(new[] { "AfsRedirector/Sound.afs", "AfsRedirector/Sound.afs" }));
    }

    [Test]
    public void Resolve_IndexEntries_AreNamedAsFefNamesThem_AndANameWithoutIndexIsWarnedAbout()
    {
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/5_name.adx", [1]);
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/0006.adx", [2]);
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/7name.adx", [3]);
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/8", [4]);
        _dir.Write("a/FEmulator/AFS/English/Sound.afs/desktop.ini", [5]);
        var plan = Resolve("a");
        Assert.That(plan.Archives.Single().Patch.Changes.Select(c => c.Key.Index), Is.EquivalentTo(new[] { 5, 6, 7, 8 }));
        Assert.That(plan.Warnings.Single(), Does.Contain("desktop.ini"));
    }

    [Test]
    public void Resolve_AwbRoute_ReplacesEntriesByIndex()
    {
        _dir.Write("a/FEmulator/AWB/bgm.awb/1_track.hca", [1]);
        var route = Resolve("a").Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/bgm.awb"));
        Assert.That((route.Patch.Changes.Single().Key, route.Patch.Changes.Single().Rule), Is.EqualTo((EntryKey.ByIndex(1), "FEmulator/AWB/bgm.awb")));
    }

    [Test]
    public void Resolve_AwbRoute_ReachesAnAwbRegisteredAsASliceOfAnotherFile()
    {
        _dir.Write("game/data/bgm.cpk", new byte[64]);
        _dir.Write("a/FEmulator/AWB/Voice.awb/2.adx", [2]);
        var slices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
        {
            ["data/bgm.cpk/voice.awb"] = (ArchiveSource.Slice(_dir["game/data/bgm.cpk"], 16, 32), Awb),
        };
        var route = new ModRouter(_dir["game"], [_dir["a"]], _ => null, slices).Resolve().Archives.Single();
        Assert.That((route.RelativePath, route.Slice is not null), Is.EqualTo(("data/bgm.cpk/voice.awb", true)));
        Assert.That(route.Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/AWB/Voice.awb"));
    }

    [Test]
    public void Resolve_AfsRoute_DoesNotApplyToAnArchiveOfAnotherType()
    {
        _dir.Write("a/FEmulator/AFS/bgm.awb/1.hca", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("matches no AFS file"));
    }

    [Test]
    public void Resolve_PakRoute_NamesEntriesByTheirPathInsideTheArchive()
    {
        LinuxOnly.Require("two names differing only in case in one folder"); // one folder on a case-insensitive file system
        _dir.Write("a/FEmulator/PAK/init_free.bin/file.tmx", [1]);
        _dir.Write("a/FEmulator/PAK/INIT_FREE.BIN/field/fldEff_rainA.tmx", [2]);
        var route = Resolve("a").Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/init_free.bin"));
        Assert.That(route.Patch.Changes.Select(c => (c.Key.Name, c.Rule)), Is.EquivalentTo(new[]
        {
            ("file.tmx", "FEmulator/PAK/init_free.bin"), ("field/fldEff_rainA.tmx", "FEmulator/PAK/INIT_FREE.BIN"),
        }));
    }

    [Test]
    public void Resolve_NestedPakPath_ThroughAnEntryThePakDoesNotHave_IsAnEntryNamedByTheWholeInnerPath()
    {
        _dir.Write("a/FEmulator/PAK/init_free.bin/init/loading.arc/mini_tv.tmx", [1]);
        var route = Resolve("a").Archives.Single();
        Assert.That(route.Nested, Is.Empty, "this PAK has no entry init/loading.arc; NestedRouteTests.Fef_… go through one that it has");
        Assert.That((route.Patch.Changes.Single().Key.Name, route.Patch.Changes.Single().Rule),
            Is.EqualTo(("init/loading.arc/mini_tv.tmx", "FEmulator/PAK/init_free.bin")));
    }

    [Test]
    public void Resolve_RouteMatchingNoGameArchive_IsWarnedAbout_NamingTheFolder()
    {
        _dir.Write("a/FEmulator/AFS/Voice.afs/1.adx", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("FEmulator/AFS/Voice.afs").And.Contain("matches no AFS file"));
    }

    [Test]
    public void Resolve_AnEmulatorArchiveEmuDoesNotHave_IsWarnedAbout()
    {
        // Issue 31: FEmulator/BF and BMD are classified as not applied (ReloadedModLayoutTests); an emulator no one knows is warned about.
        _dir.Write("a/FEmulator/AFS/Sound.afs/1.adx", [2]);
        _dir.Write("a/FEmulator/XYZ/field.xyz/a.txt", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Warnings.Single(), Does.Contain("FEmulator/AFS, FEmulator/AWB, FEmulator/PAK, FEmulator/SPD and FEmulator/L10N only"));
        Assert.That(plan.NotApplied.Single().Line, Does.Contain("1 file(s) in FEmulator/XYZ/ not applied").And.Contain("field.xyz/a.txt"));
    }

    [Test]
    public void Resolve_RedirectorFolder_OverridesWholeFilesInAnyCase()
    {
        _dir.Write("a/Redirector/DATA/README.TXT", [1]);
        var over = Resolve("a").Overrides.Single();
        Assert.That((over.RelativePath, over.SourcePath, over.Rule), Is.EqualTo(("data/readme.txt", _dir["a/Redirector/DATA/README.TXT"], "Redirector")));
    }

    [Test]
    public void Resolve_MirrorLayout_RecordsTheMirrorRule()
    {
        _dir.Write("a/data/readme.txt", [1]);
        _dir.Write("a/English/Sound.afs/1.adx", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Overrides.Single().Rule, Is.EqualTo("mirror"));
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Rule, Is.EqualTo("mirror"));
    }

    [Test]
    public void Resolve_ReloadedMetadataAtTheModRoot_IsNeverServed()
    {
        _dir.Write("a/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "x", "ModIcon": "Icon.jpg", "ModDll": "Mod.dll" }"""));
        _dir.Write("a/Icon.jpg", [1]);
        _dir.Write("a/Mod.dll", [2]);
        _dir.Write("a/Preview.png", [3]);
        var readme = _dir.Write("a/Redirector/data/readme.txt", [4]);
        // Issue 31: a root holding ModConfig.json is a Reloaded-II mod; its metadata is never a game file, Redirector/ is.
        Assert.That(Resolve("a").Overrides.Select(o => o.SourcePath), Is.EqualTo(new[] { readme }));
    }

    [Test]
    public void Resolve_ReloadedLayout_OtherFilesAtTheRootAreNotGameFiles_AndAreNamedInAWarning()
    {
        _dir.Write("a/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "x" }"""));
        _dir.Write("a/Preview.png", [1]);
        _dir.Write("a/README.md", [2]);
        _dir.Write("a/data/readme.txt", [3]);
        _dir.Write("a/FEmulator/AFS/Sound.afs/1.adx", [4]);
        var plan = Resolve("a");
        Assert.That(plan.Overrides, Is.Empty);
        // Issue 31: reported as not applied, one line per folder, with the mod's metadata left out.
        var notApplied = string.Join("\n", plan.NotApplied.Select(n => n.Line));
        Assert.That(notApplied, Does.Contain("README.md").And.Contain("data/").And.Not.Contain("Preview.png").And.Not.Contain("ModConfig.json"));
    }

    [Test]
    public void Resolve_ReloadedLayout_EveryFileModConfigNames_IsTheModsMetadata_NotReportedAsNotApplied()
    {
        // Reloaded-II's ModConfig fields that name files of the mod, and the update metadata's default name.
        string[] fields = ["ModIcon", "ModDll", "ModR2RManagedDll32", "ModR2RManagedDll64", "ModNativeDll32", "ModNativeDll64", "ReleaseMetadataFileName"];
        var config = string.Join(", ", fields.Select(f => $"\"{f}\": \"{f}.bin\""));
        _dir.Write("a/ModConfig.json", Encoding.UTF8.GetBytes($$"""{ "ModId": "x", {{config}} }"""));
        foreach (var field in fields)
            _dir.Write($"a/{field}.bin", [1]);
        _dir.Write("a/Sewer56.Update.ReleaseMetadata.json", [2]);
        _dir.Write("a/stray.txt", [3]);
        _dir.Write("a/FEmulator/AFS/Sound.afs/1.adx", [4]);
        var plan = Resolve("a");
        Assert.That(plan.Overrides, Is.Empty);
        var notApplied = plan.NotApplied.Single().Line;
        Assert.That(notApplied, Does.Contain("stray.txt"));
        foreach (var name in fields.Select(f => $"{f}.bin").Append("Sewer56.Update.ReleaseMetadata.json"))
            Assert.That(notApplied, Does.Not.Contain(name));
    }

    [Test]
    public void Resolve_ALayoutFolderSpelledTwiceInDifferentCase_IsReadThroughTheFirstInOrdinalOrder_TheOtherNotApplied()
    {
        LinuxOnly.Require("two spellings of one folder need a case-sensitive file system");
        var first = _dir.Write("a/FEmulator/AFS/English/Sound.afs/1.adx", [1]);
        _dir.Write("a/femulator/AFS/English/Sound.afs/2.adx", [2]);
        var plan = Resolve("a");
        var change = plan.FindArchive("English/Sound.afs")!.Patch.Changes.Single();
        Assert.That((change.Key, change.Input!.Path), Is.EqualTo((EntryKey.ByIndex(1), first)));
        Assert.That(plan.NotApplied.Single().Line, Does.Contain("femulator/"));
    }

    [Test]
    public void Resolve_UnreadableModConfig_IsWarnedAbout_AndStillNotServed()
    {
        _dir.Write("a/ModConfig.json", Encoding.UTF8.GetBytes("{ not json"));
        _dir.Write("a/Redirector/data/readme.txt", [1]);
        var plan = Resolve("a");
        Assert.That(plan.Overrides.Select(o => o.RelativePath), Is.EqualTo(new[] { "data/readme.txt" }));
        Assert.That(plan.Warnings.Single(), Does.Contain("ModConfig.json"));
    }

    private RoutePlan Resolve(params string[] mods) =>
        new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray(), path =>
            path.EndsWith(".afs") ? Afs : path.EndsWith(".awb") ? Awb : path.EndsWith(".bin") ? Pak : null).Resolve();
}
