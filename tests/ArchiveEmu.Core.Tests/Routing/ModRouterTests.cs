using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

public sealed class ModRouterTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders()
    {
        _dir = new TempDirectory("route");
        _dir.Write("game/data/tex.afs", [1]);
        _dir.Write("game/data/pack.zip", [2]);
        _dir.Write("game/data/readme.txt", [3]);
    }

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    [Test]
    public void Resolve_IndexNames_AllFormsMapToTheirIndex()
    {
        _dir.Write("a/data/tex.afs/7.dds", [7]);
        _dir.Write("a/data/tex.afs/0012.dds", [12]);
        _dir.Write("a/data/tex.afs/3_hero_face.dds", [3]);
        _dir.Write("a/data/tex.afs/42", [42]);

        var route = Resolve(["a"]).Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/tex.afs"));
        Assert.That(route.Patch.Changes.Select(c => c.Key.Index).Order(), Is.EqualTo(new[] { 3, 7, 12, 42 }));
        Assert.That(route.Patch.Changes.Select(c => c.Origin), Is.All.EqualTo("a"));
        Assert.That(route.Patch.Changes.Single(c => c.Key.Index == 12).Input!.Path, Is.EqualTo(_dir["a/data/tex.afs/0012.dds"]));
    }

    [TestCase("x7.dds")]
    [TestCase("7x.dds")]
    [TestCase("readme.txt")]
    public void Resolve_IndexFileNameWithoutLeadingIndex_ThrowsNamingTheFile(string name)
    {
        _dir.Write($"a/data/tex.afs/{name}", [1]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.Contains(name).And.Message.Contains("index"));
    }

    [Test]
    public void Resolve_TwoFilesForOneIndexInOneMod_ThrowsNamingBoth()
    {
        _dir.Write("a/data/tex.afs/7.dds", [1]);
        _dir.Write("a/data/tex.afs/0007_b.dds", [2]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.Contains("7.dds").And.Message.Contains("0007_b.dds"));
    }

    [Test]
    public void Resolve_SameEntryInTwoMods_LaterWinsAndTheConflictIsReported()
    {
        _dir.Write("a/data/tex.afs/7.dds", [1]);
        _dir.Write("b/data/tex.afs/0007_better.dds", [2]);
        var plan = Resolve(["a", "b"]);

        var change = plan.Archives.Single().Patch.Changes.Single();
        Assert.That(change.Origin, Is.EqualTo("b"));
        Assert.That(change.Input!.Path, Is.EqualTo(_dir["b/data/tex.afs/0007_better.dds"]));
        Assert.That(plan.Conflicts.Single(), Is.EqualTo(new RouteConflict("data/tex.afs", "7", ["a", "b"], "b")).Using<RouteConflict>(SameConflict));
    }

    [Test]
    public void Resolve_NameFormat_PathBelowArchiveFolderIsTheEntryName()
    {
        _dir.Write("a/data/pack.zip/textures/ui/button.dds", [1]);
        _dir.Write("a/data/pack.zip/new.txt", [2]);
        var route = Resolve(["a"], FakeFormat.Names).Archives.Single();
        Assert.That(route.Patch.Changes.Select(c => c.Key.Name), Is.EquivalentTo(new[] { "textures/ui/button.dds", "new.txt" }));
    }

    [Test]
    public void Resolve_CaseInsensitiveFormat_DifferentSpellingsAreOneEntry()
    {
        _dir.Write("a/data/pack.zip/Player.txd", [1]);
        _dir.Write("b/data/pack.zip/PLAYER.TXD", [2]);
        var plan = Resolve(["a", "b"], FakeFormat.NamesIgnoringCase);
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Origin, Is.EqualTo("b"));
        Assert.That(plan.Conflicts, Has.Count.EqualTo(1));
    }

    [Test]
    public void Resolve_DelFile_DeletesTheEntry()
    {
        _dir.Write("a/data/tex.afs/5.del", []);
        _dir.Write("a/data/pack.zip/textures/old.dds.del", []);
        var plan = Resolve(["a"], FakeFormat.Names, FakeFormat.Index);
        Assert.That(plan.FindArchive("data/tex.afs")!.Patch.Changes.Single(), Has.Property("IsDelete").True.And.Property("Key").EqualTo(EntryKey.ByIndex(5)));
        Assert.That(plan.FindArchive("data/pack.zip")!.Patch.Changes.Single().Key, Is.EqualTo(EntryKey.ByName("textures/old.dds")));
    }

    [Test]
    public void Resolve_PlainFiles_AreWholeFileOverridesWithConflicts()
    {
        _dir.Write("a/data/readme.txt", [1]);
        _dir.Write("b/data/readme.txt", [2]);
        _dir.Write("b/extra/new.bin", [3]);
        var plan = Resolve(["a", "b"]);
        Assert.That(plan.Overrides.Select(o => (o.RelativePath, o.Mod)), Is.EquivalentTo(new[] { ("data/readme.txt", "b"), ("extra/new.bin", "b") }));
        Assert.That(plan.FindOverride("data/readme.txt")!.SourcePath, Is.EqualTo(_dir["b/data/readme.txt"]));
        Assert.That(plan.Conflicts.Single().Entry, Is.Null);
        Assert.That(plan.Conflicts.Single().Rules, Is.EqualTo(new[] { ModRules.Mirror, ModRules.Mirror }));
    }

    [Test]
    public void Resolve_SymlinkLeadingOutsideTheMod_IsRefused()
    {
        LinuxOnly.RequireSymlinks();
        var outside = _dir.Write("secret/passwords.txt", [9]);
        Directory.CreateDirectory(_dir["a/data/tex.afs"]);
        File.CreateSymbolicLink(_dir["a/data/tex.afs/3.dds"], outside);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.Contains("3.dds").And.Message.Contains("leads outside"));
    }

    [Test]
    public void Resolve_SymlinkedFolderLeadingOutsideTheMod_IsRefused()
    {
        LinuxOnly.RequireSymlinks();
        _dir.Write("elsewhere/data/readme.txt", [9]);
        Directory.CreateDirectory(_dir["a"]);
        Directory.CreateSymbolicLink(_dir["a/data"], _dir["elsewhere/data"]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.Contains("leads outside"));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void Resolve_SymlinkInsideTheMod_IsFollowed(bool relative)
    {
        LinuxOnly.RequireSymlinks();
        var real = _dir.Write("a/store/7.dds", [7]);
        Directory.CreateDirectory(_dir["a/data/tex.afs"]);
        File.CreateSymbolicLink(_dir["a/data/tex.afs/7.dds"], relative ? "../../store/7.dds" : real);
        Assert.That(Resolve(["a"]).Archives.Single().Patch.Changes.Single().Input!.Length, Is.EqualTo(1));
    }

    [TestCase(40, true)] // the kernel follows 40 links on one path, and so does a mod's check
    [TestCase(41, false)]
    public void Resolve_AChainOfSymlinksInsideTheMod_IsFollowedUpToTheKernelsLimit(int links, bool followed)
    {
        LinuxOnly.RequireSymlinks();
        _dir.Write("a/store/link0", [7]);
        for (int i = 1; i < links; i++)
            File.CreateSymbolicLink(_dir[$"a/store/link{i}"], $"link{i - 1}"); // each relative to its folder
        Directory.CreateDirectory(_dir["a/data/tex.afs"]);
        File.CreateSymbolicLink(_dir["a/data/tex.afs/7.dds"], $"../../store/link{links - 1}");
        if (followed)
            Assert.That(Resolve(["a"]).Archives.Single().Patch.Changes.Single().Input!.Length, Is.EqualTo(1));
        else
            Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.EqualTo(
                $"{_dir["a/store/link0"]}: too many levels of symbolic links"));
    }

    [Test]
    public void Resolve_ASymlinkLoopInAMod_IsOneErrorNamingIt()
    {
        LinuxOnly.RequireSymlinks();
        Directory.CreateDirectory(_dir["a/data/tex.afs"]);
        File.CreateSymbolicLink(_dir["a/data/tex.afs/7.dds"], "8.dds");
        File.CreateSymbolicLink(_dir["a/data/tex.afs/8.dds"], "7.dds");
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.EndsWith(": too many levels of symbolic links"));
    }

    [Test]
    public void Resolve_FilesNamedWithALeadingDot_AreModFilesAsAnyOther()
    {
        // .NET skips "hidden" entries unless told not to, and on Linux a leading dot is what makes one hidden.
        _dir.Write("a/.config", [1]);
        _dir.Write("a/data/pack.zip/.hidden/x.bin", [2]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Overrides.Single().RelativePath, Is.EqualTo(".config"));
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Key.Name, Is.EqualTo(".hidden/x.bin"));
    }

    [Test]
    public void Resolve_AnEmptyMirrorMod_ReportsNoRule_AModWithAFolderReportsMirror()
    {
        Directory.CreateDirectory(_dir["empty"]);
        _dir.Write("a/data/tex.afs/7.dds", [7]);
        Assert.That(Resolve(["empty", "a"]).ModReports.Select(r => (r.Mod, string.Join(",", r.Applied))),
            Is.EqualTo(new[] { ("empty", ""), ("a", ModRules.Mirror) }));
    }

    [Test]
    public void Resolve_AGameFolderHoldingFilesNamedLikeEntries_IsNoArchiveLookalike()
    {
        _dir.Write("a/data/0.bin", [1]);
        var plan = Resolve(["a"]);
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Overrides.Single().RelativePath, Is.EqualTo("data/0.bin"));
    }

    [Test]
    public void Resolve_ALookalikeInsideALookalike_IsOneWarning()
    {
        _dir.Write("a/data/new.afs/sub.zip/0.bin", [1]);
        Assert.That(Resolve(["a"]).Warnings.Single(), Does.StartWith($"mod folder {_dir["a/data/new.afs"]} looks like an archive's entries"));
    }

    [Test]
    public void Resolve_AGameFileWhoseNameBeginsAContainersName_IsNoContainer()
    {
        // data/tex.afs is an archive; data/tex.afs.bin holds one (a declared slice): a mod folder for the first is its entries.
        var container = _dir.Write("game/data/tex.afs.bin", new byte[64]);
        var slices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
        {
            ["data/tex.afs.bin/inner.afs"] = (ArchiveSource.Slice(container, 0, 64), FakeFormat.Index),
        };
        _dir.Write("a/data/tex.afs/3.dds", [3]);
        var plan = new ModRouter(_dir["game"], [_dir["a"]], path => path.EndsWith(".afs") ? FakeFormat.Index : null, slices).Resolve();
        Assert.That(plan.Overrides, Is.Empty);
        Assert.That(plan.Archives.Single().RelativePath, Is.EqualTo("data/tex.afs"));
    }

    [Test]
    public void Resolve_AModFolderForAGameSymlinkLeadingNowhere_IsOneErrorSayingSo()
    {
        LinuxOnly.RequireSymlinks();
        File.CreateSymbolicLink(_dir["game/data/gone.afs"], _dir["disk2/gone.afs"]);
        _dir.Write("a/data/gone.afs/1.dds", [1]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<FileNotFoundException>().With.Message.EqualTo(
            $"{_dir["game/data/gone.afs"]} (a symlink to {_dir["disk2/gone.afs"]}, which leads nowhere): mod folder {_dir["a/data/gone.afs"]} targets it"));
    }

    [Test]
    public void Resolve_TwoFilesOfOneModSpellingOneGameFile_IsOneErrorNamingBoth()
    {
        LinuxOnly.Require("two names differing only in case in one folder");
        _dir.Write("a/data/README.txt", [1]);
        _dir.Write("a/data/Readme.txt", [2]);
        Assert.That(() => Resolve(["a"]), Throws.InstanceOf<IOException>().With.Message.EqualTo(
            $"{_dir["a/data/Readme.txt"]}: targets data/readme.txt, as {_dir["a/data/README.txt"]} in the same mod does (they differ only in letter case); "
            + "the mod is ambiguous, keep one of them"));
    }

    [Test]
    public void Resolve_AnInputAddedInCodeForAFileThatIsNoArchiveNorFollower_IsTheNotAnArchiveError()
    {
        Directory.CreateDirectory(_dir["a"]);
        var router = new ModRouter(_dir["game"], [_dir["a"]], path => path.EndsWith(".afs") ? FakeFormat.Index : null)
        {
            CodeInputs = [new CodeInput("data/readme.txt", EntryKey.ByIndex(0), EntryInput.FromBytes(new byte[] { 1 }), "loader")],
        };
        Assert.That(() => router.Resolve(), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("readme.txt"));
    }

    [Test]
    public void Resolve_GameArchiveThatIsASymlinkOutsideTheGame_IsFollowed()
    {
        LinuxOnly.RequireSymlinks();
        var target = _dir.Write("disk2/tex.afs", [1, 2, 3]);
        File.CreateSymbolicLink(_dir["game/data/linked.afs"], target);
        _dir.Write("a/data/linked.afs/7.dds", [7]);
        var route = Resolve(["a"]).Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("data/linked.afs"));
        Assert.That(route.GamePath, Is.EqualTo(_dir["game/data/linked.afs"]), "named as the player sees it");
        Assert.That(File.ReadAllBytes(route.GamePath), Is.EqualTo(new byte[] { 1, 2, 3 }));
    }

    [Test]
    public void Resolve_GameFolderThatIsASymlinkOutsideTheGame_ModRoutesThroughTheLinksName()
    {
        LinuxOnly.RequireSymlinks();
        _dir.Write("disk2/movies/cut.afs", [4]);
        Directory.CreateSymbolicLink(_dir["game/movies"], _dir["disk2/movies"]);
        _dir.Write("a/movies/cut.afs/2.dds", [2]);
        var route = Resolve(["a"]).Archives.Single();
        Assert.That(route.RelativePath, Is.EqualTo("movies/cut.afs"));
        Assert.That(route.Patch.Changes.Single().Key.Index, Is.EqualTo(2));
        Assert.That(GamePaths.Resolve(_dir["game"], "movies/cut.afs"), Is.EqualTo(_dir["game/movies/cut.afs"]));
    }

    [Test]
    public void GamePaths_ThroughRelativeAndChainedSymlinks_AreFollowed_ButDotDotStaysRefused()
    {
        LinuxOnly.RequireSymlinks();
        _dir.Write("disk2/real/voice.afs", [5]);
        Directory.CreateSymbolicLink(_dir["disk2/alias"], "real"); // a link to a folder, relative
        File.CreateSymbolicLink(_dir["game/data/voice.afs"], "../../disk2/alias/voice.afs"); // relative, through the other link
        Assert.That(File.ReadAllBytes(GamePaths.Resolve(_dir["game"], "data/voice.afs")), Is.EqualTo(new byte[] { 5 }));
        Assert.That(() => GamePaths.Resolve(_dir["game"], "data/../../disk2/real/voice.afs"), Throws.InstanceOf<IOException>(),
            "following the game's links is no licence for '..'");
    }

    [Test]
    public void Resolve_MissingFolders_ThrowNamingThem()
    {
        Assert.That(() => new ModRouter(_dir["nogame"], [_dir["game"]]),
            Throws.InstanceOf<DirectoryNotFoundException>().With.Message.EqualTo($"{_dir["nogame"]}: game folder not found"));
        Assert.That(() => new ModRouter(_dir["game"], [_dir["nomod"]]),
            Throws.InstanceOf<DirectoryNotFoundException>().With.Message.EqualTo($"{_dir["nomod"]}: mod folder not found"));
    }

    [Test]
    public void Resolve_FolderTargetingAFileThatIsNoArchive_ThrowsNamingIt()
    {
        _dir.Write("a/data/readme.txt/1.txt", [1]);
        Assert.That(() => new ModRouter(_dir["game"], [_dir["a"]], _ => null).Resolve(),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("readme.txt").And.Message.Contains("not an archive"));
    }

    [Test]
    public void Resolve_GamePathsWithDotDotOrAbsolute_AreRefused()
    {
        Assert.That(() => GamePaths.Resolve(_dir["game"], "../secret"), Throws.InstanceOf<IOException>().With.Message.EqualTo(
            $"../secret: must be a path inside {_dir["game"]} (no absolute paths, no '..')"));
        Assert.That(() => GamePaths.Resolve(_dir["game"], "/etc/passwd"), Throws.InstanceOf<IOException>());
        Assert.That(GamePaths.Resolve(_dir["game"], "data/readme.txt"), Is.EqualTo(_dir["game/data/readme.txt"]));
    }

    private RoutePlan Resolve(string[] mods, IArchiveFormat? zipFormat = null, IArchiveFormat? afsFormat = null) =>
        new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray(),
            path => path.EndsWith(".afs") ? afsFormat ?? FakeFormat.Index : path.EndsWith(".zip") ? zipFormat ?? FakeFormat.Names : null).Resolve();

    private static bool SameConflict(RouteConflict a, RouteConflict b) =>
        a.Target == b.Target && a.Entry == b.Entry && a.Winner == b.Winner && a.Mods.SequenceEqual(b.Mods);
}
