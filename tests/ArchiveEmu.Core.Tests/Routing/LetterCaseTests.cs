using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>Issue 19, "Letter case": a mod path meets a game path whatever the case of each component; the game's spelling is served.</summary>
public sealed class LetterCaseTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("letter-case");
        _dir.Write("game/data/tex.afs", [1]);
        _dir.Write("game/data/pack.zip", [2]);
        _dir.Write("game/data/readme.txt", [3]);
        _dir.Write("game/données/niveau.afs", [4]);
        _dir.Write("game/ärger.zip", [5]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [TestCase("DATA/TEX.AFS")]
    [TestCase("Data/tex.afs")]
    [TestCase("data/Tex.Afs")]
    public void Resolve_ArchiveFolderInAnyCase_TargetsTheGameArchive_SpelledAsTheGameDoes(string modFolder)
    {
        _dir.Write($"a/{modFolder}/7.dds", [7]);
        var route = Resolve(["a"]).Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/tex.afs"));
        Assert.That(route.GamePath, Is.EqualTo(_dir["game/data/tex.afs"]));
        Assert.That(route.Patch.Changes.Single().Key, Is.EqualTo(EntryKey.ByIndex(7)));
    }

    [Test]
    public void Resolve_NonAsciiLettersInAnyCase_TargetTheGameArchive()
    {
        _dir.Write("a/DONNÉES/Niveau.AFS/3.dds", [3]);
        _dir.Write("a/ÄRGER.ZIP/Menü.txt", [1]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Archives.Select(r => r.RelativePath), Is.EquivalentTo(new[] { "données/niveau.afs", "ärger.zip" }));
        Assert.That(plan.FindArchive("ärger.zip")!.Patch.Changes.Single().Key.Name, Is.EqualTo("Menü.txt"), "an entry name is the format's business");
        Assert.That(plan.Overrides, Is.Empty);
    }

    [Test]
    public void Resolve_WholeFileInAnyCase_OverridesTheGameFile_SpelledAsTheGameDoes_NewComponentsKeepTheModsSpelling()
    {
        _dir.Write("a/Data/README.TXT", [1]);
        _dir.Write("a/DATA/NewStuff/Extra.bin", [2]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Overrides.Select(o => o.RelativePath), Is.EquivalentTo(new[] { "data/readme.txt", "data/NewStuff/Extra.bin" }));
        Assert.That(plan.FindOverride("data/readme.txt")!.SourcePath, Is.EqualTo(_dir["a/Data/README.TXT"]));
    }

    [Test]
    public void Resolve_TwoModsSpellingAnEntryDifferently_LaterWinsAndTheConflictIsReported()
    {
        _dir.Write("a/data/tex.afs/7.dds", [1]);
        _dir.Write("b/DATA/TEX.AFS/7.dds", [2]);
        var plan = Resolve(["a", "b"]);
        var change = plan.Archives.Single().Patch.Changes.Single();
        Assert.That(change.Origin, Is.EqualTo("b"));
        Assert.That(File.ReadAllBytes(change.Input!.Path!), Is.EqualTo(new byte[] { 2 }));
        var conflict = plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/tex.afs", "7", "b")));
        Assert.That(conflict.Mods, Is.EqualTo(new[] { "a", "b" }));
    }

    [Test]
    public void Resolve_TwoModsSpellingAWholeFileDifferently_LaterWinsAndTheConflictIsReported()
    {
        _dir.Write("a/data/readme.txt", [1]);
        _dir.Write("b/DATA/ReadMe.txt", [2]);
        _dir.Write("a/New/x.txt", [3]);
        _dir.Write("b/NEW/X.TXT", [4]);
        var plan = Resolve(["a", "b"]);
        Assert.That(plan.Overrides.Select(o => (o.RelativePath, o.Mod)), Is.EquivalentTo(new[] { ("data/readme.txt", "b"), ("New/x.txt", "b") }),
            "a new path is spelled as the first mod that adds it spells it");
        Assert.That(plan.Conflicts.Select(c => (c.Target, c.Entry, c.Winner)), Is.EquivalentTo(new (string, string?, string)[]
        {
            ("data/readme.txt", null, "b"), ("New/x.txt", null, "b"),
        }));
    }

    [Test]
    public void Resolve_TwoModsSpellingAnEntryOfACaseInsensitiveFormatDifferently_IsOneConflict()
    {
        _dir.Write("a/data/pack.zip/Player.txd", [1]);
        _dir.Write("b/DATA/PACK.ZIP/PLAYER.TXD", [2]);
        var plan = Resolve(["a", "b"], FakeFormat.NamesIgnoringCase);
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Origin, Is.EqualTo("b"));
        Assert.That(plan.Conflicts.Single().Target, Is.EqualTo("data/pack.zip"));
    }

    [Test]
    public void Resolve_TwoSpellingsOfOneArchiveFolderInOneMod_SameEntry_ThrowsNamingBoth()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("a/data/tex.afs/7.dds", [1]);
        _dir.Write("a/DATA/TEX.AFS/7.dds", [2]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>()
            .With.Message.Contains(_dir["a/data/tex.afs/7.dds"]).And.Message.Contains(_dir["a/DATA/TEX.AFS/7.dds"]));
    }

    [Test]
    public void Resolve_TwoSpellingsOfOneArchiveFolderInOneMod_DifferentEntries_AreBothApplied_WithoutAConflict()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("a/data/tex.afs/7.dds", [1]);
        _dir.Write("a/DATA/TEX.AFS/8.dds", [2]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Archives.Single().Patch.Changes.Select(c => c.Key.Index), Is.EquivalentTo(new[] { 7, 8 }));
        Assert.That(plan.Conflicts, Is.Empty);
    }

    [Test]
    public void Resolve_TwoSpellingsOfOneEntryOfACaseInsensitiveFormatInOneMod_ThrowsNamingBoth()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("a/data/pack.zip/A.txt", [1]);
        _dir.Write("a/data/PACK.ZIP/a.txt", [2]);
        Assert.That(() => Resolve(["a"], FakeFormat.NamesIgnoringCase), Throws.InstanceOf<IOException>()
            .With.Message.Contains(_dir["a/data/pack.zip/A.txt"]).And.Message.Contains(_dir["a/data/PACK.ZIP/a.txt"]));
    }

    [Test]
    public void Resolve_TwoSpellingsOfOneEntryOfACaseSensitiveFormatInOneMod_AreTwoEntries()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("a/data/pack.zip/A.txt", [1]);
        _dir.Write("a/data/PACK.ZIP/a.txt", [2]);
        var route = Resolve(["a"], FakeFormat.Names).Archives.Single();
        Assert.That(route.Patch.Changes.Select(c => c.Key.Name), Is.EquivalentTo(new[] { "A.txt", "a.txt" }));
    }

    [TestCase("data/Readme.txt", "data/README.txt")]
    [TestCase("data/readme.txt", "DATA/readme.txt")]
    [TestCase("extra/New.txt", "extra/NEW.txt")]
    public void Resolve_TwoSpellingsOfOneWholeFileInOneMod_ThrowsNamingBoth(string first, string second)
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write($"a/{first}", [1]);
        _dir.Write($"a/{second}", [2]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>()
            .With.Message.Contains(_dir[$"a/{first}"]).And.Message.Contains(_dir[$"a/{second}"]).And.Message.Not.Contains("\n"));
    }

    [Test]
    public void Resolve_GameFolderWithTwoSpellings_TheExactOneWins()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("game/data/TEX.afs", [9]);
        _dir.Write("a/data/TEX.afs/1.dds", [1]);
        _dir.Write("b/data/tex.afs/2.dds", [2]);
        var plan = Resolve(["a", "b"]);
        Assert.That(plan.Archives.Select(r => r.RelativePath), Is.EquivalentTo(new[] { "data/TEX.afs", "data/tex.afs" }));
    }

    [Test]
    public void Resolve_GameFolderWithTwoSpellings_NeitherExact_ThrowsNamingBoth()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("game/data/TEX.afs", [9]);
        _dir.Write("a/data/Tex.afs/1.dds", [1]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.EqualTo($"{_dir["a/data/Tex.afs"]}: the game folder "
            + $"{_dir["game"]} has data/TEX.afs and data/tex.afs, which differ only in letter case; spell the mod's as one of them exactly"));
    }

    [Test]
    public void Resolve_AGameFileNamedWithALeadingDot_IsMetWhateverTheModsLetterCase()
    {
        // .NET skips "hidden" names unless told not to, and on Linux a leading dot is what makes one hidden.
        _dir.Write("game/data/.hidden.afs", [9]);
        _dir.Write("a/DATA/.HIDDEN.AFS/1.dds", [1]);
        Assert.That(Resolve(["a"]).Archives.Single().RelativePath, Is.EqualTo("data/.hidden.afs"));
    }

    [Test]
    public void Resolve_ArchiveInsideAnotherFileInAnyCase_TargetsTheSliceAsRegistered()
    {
        _dir.Write("game/data/bgm.cpk", new byte[64]);
        _dir.Write("a/DATA/BGM.CPK/Voice.AWB/2.adx", [2]);
        var slices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
        {
            ["data/bgm.cpk/voice.awb"] = (ArchiveSource.Slice(_dir["game/data/bgm.cpk"], 16, 32), FakeFormat.Index),
        };
        var route = new ModRouter(_dir["game"], [_dir["a"]], _ => null, slices).Resolve().Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/bgm.cpk/voice.awb"));
        Assert.That(route.Patch.Changes.Single().Key, Is.EqualTo(EntryKey.ByIndex(2)));
    }

    [Test]
    public void Resolve_DeleteSuffixInCapitals_Deletes()
    {
        _dir.Write("a/DATA/TEX.AFS/7.DEL", []);
        var change = Resolve(["a"]).Archives.Single().Patch.Changes.Single();
        Assert.That(change.IsDelete, Is.True);
        Assert.That(change.Key, Is.EqualTo(EntryKey.ByIndex(7)));
    }

    [Test]
    public void Resolve_ArchiveFolderWithATypo_IsWarnedAbout_NamingTheClosestGamePath()
    {
        _dir.Write("a/data/texs.afs/3.dds", [3]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings, Has.Count.EqualTo(1));
        Assert.That(plan.Warnings[0], Does.Contain(_dir["a/data/texs.afs"]).And.Contain("closest game path: data/tex.afs"));
    }

    [Test]
    public void Resolve_ArchiveFolderInTheWrongFolder_IsWarnedAbout_NamingTheGameFileOfThatName()
    {
        _dir.Write("a/pack.zip/a.txt", [3]);
        _dir.Write("game/other/pack.bin", [1]);
        var warning = Resolve(["a"]).Warnings.Single();
        Assert.That(warning, Does.Contain(_dir["a/pack.zip"]).And.Contain("closest game path: data/pack.zip"));
    }

    [Test]
    public void Resolve_FolderOfIndexNamedFilesMatchingNoGameFile_IsWarnedAbout()
    {
        _dir.Write("game/sound/voice", [1]);
        _dir.Write("a/sound/voices/3.adx", [3]);
        _dir.Write("a/sound/voices/12_hello.adx", [12]);
        var warning = Resolve(["a"]).Warnings.Single();
        Assert.That(warning, Does.Contain(_dir["a/sound/voices"]).And.Contain("closest game path: sound/voice"));
    }

    [Test]
    public void Resolve_NewFolderOfOrdinaryFiles_IsNotWarnedAbout()
    {
        _dir.Write("a/extra/readme.txt", [1]);
        _dir.Write("a/data/more/notes.txt", [1]);
        Assert.That(Resolve(["a"]).Warnings, Is.Empty);
    }

    private RoutePlan Resolve(string[] mods, IArchiveFormat? zipFormat = null) =>
        new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray(),
            path => path.EndsWith(".afs") ? FakeFormat.Index : path.EndsWith(".zip") ? zipFormat ?? FakeFormat.Names : null).Resolve();
}
