using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving.Plans;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 48: the game-folder walks never hang. Two <c>ln -s .</c> links made the plan key's walk (.NET's recursive listing,
/// which follows every link) run for minutes, a Wine prefix in the game folder (<c>pfx/dosdevices/z: → /</c>) reached /proc and
/// failed, and a link loop in Reloaded-II's Mods folder read every mod 40 times over. One walk for all: links followed, each
/// real folder once, a prefix's drive links not entered.
/// </summary>
public sealed class GameTreeTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("symbolic links to folders, and a Wine prefix's dosdevices links");
        _dir = new TempDirectory("game-tree");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private static T Within<T>(Func<T> walk)
    {
        var running = Task.Run(walk);
        Assert.That(running.Wait(TimeSpan.FromSeconds(60)), Is.True, "the walk did not end (a link loop followed)");
        return running.Result;
    }

    private string GameWithLoopsAndAPrefix()
    {
        _dir.Write("game/data/a.bin", [1]);
        _dir.Write("game/pfx/drive_c/x.txt", [2]);
        Directory.CreateDirectory(_dir["game/pfx/dosdevices"]);
        File.CreateSymbolicLink(_dir["game/loop1"], ".");
        File.CreateSymbolicLink(_dir["game/data/loop2"], "..");
        File.CreateSymbolicLink(_dir["game/pfx/dosdevices/z:"], "/");
        File.CreateSymbolicLink(_dir["game/pfx/dosdevices/c:"], "../drive_c");
        return _dir["game"];
    }

    [Test]
    public void Walk_LinkLoopsAndAPrefixsDrives_EachRealFolderOnce_DrivesNotEntered()
    {
        var game = GameWithLoopsAndAPrefix();

        var entries = Within(() => GameTree.Walk(game).ToList());

        Assert.That(entries, Is.EqualTo(new GameTree.Entry[]
        {
            new("data", GameTree.Kind.Folder), new("data/a.bin", GameTree.Kind.File), new("data/loop2", GameTree.Kind.Folder),
            new("loop1", GameTree.Kind.Folder),
            new("pfx", GameTree.Kind.Folder), new("pfx/dosdevices", GameTree.Kind.Folder),
            new("pfx/drive_c", GameTree.Kind.Folder), new("pfx/drive_c/x.txt", GameTree.Kind.File),
        }));
    }

    [Test]
    public void PlanKey_OfAGameWithLoopsAndAPrefix_EndsAndIsStable_AndSeesAFileChange()
    {
        var game = GameWithLoopsAndAPrefix();
        _dir.Write("mod/data/a.bin", [3]);
        string[] mods = [_dir["mod"]];

        var key = Within(() => PlanKey.Of(game, mods, "en", null));

        Assert.That(PlanKey.Of(game, mods, "en", null), Is.EqualTo(key));
        _dir.Write("game/pfx/drive_c/x.txt", [2, 2]);
        Assert.That(PlanKey.Of(game, mods, "en", null), Is.Not.EqualTo(key), "a file the walk reads changed");
    }

    [Test]
    public void TheModsFolder_WithALinkLoop_ReadsEachModOnce()
    {
        _dir.Write("Mods/hd/ModConfig.json", """{ "ModId": "hd", "ModName": "HD" }"""u8.ToArray());
        _dir.Write("Mods/Group/ui/ModConfig.json", """{ "ModId": "ui", "ModName": "UI" }"""u8.ToArray());
        File.CreateSymbolicLink(_dir["Mods/loop"], ".");
        File.CreateSymbolicLink(_dir["Mods/Group/loop"], "..");
        var problems = new List<string>();

        var mods = Within(() => ReloadedModConfigs.ReadAll(_dir["Mods"], problems));

        Assert.That(mods.Select(m => m.Folder), Is.EqualTo(new[] { _dir["Mods/Group/ui"], _dir["Mods/hd"] }));
        Assert.That(problems, Is.Empty);
    }
}
