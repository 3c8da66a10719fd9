using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 21, CRI FileSystem V2 Hook's layout (docs/DESIGN.md, "Reloaded-II and FEF mods"): <c>CRIFsV2Hook/CPK/&lt;any folder&gt;/&lt;path&gt;</c>
/// replaces that path in whichever CPK of the game holds it, letter case aside; a path no CPK holds goes into the CPK the
/// folder is named after, else a warning. Every emulated CPK is re-read by the independent reader, entry by entry.
/// </summary>
public sealed class CriFsLayoutTests
{
    private static readonly byte[] Tex = TestData.Random(1, 3000), Zz = TestData.Random(2, 500), Button = TestData.Random(3, 2100),
        Ui = TestData.Random(4, 40);
    private static readonly byte[][] Sounds = [TestData.Random(5, 700), TestData.Random(6, 800)];
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("crifs-layout");
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed(
            [new("battle", "tex.dds", Tex), new("battle", "zz.bin", Zz), new("sound", "bgm.afs", AfsTestWriter.Write(Sounds))]));
        _dir.Write("game/data/EN.CPK", CpkTestWriter.WriteNamed([new("BUTTON", "BUTTON_XBOX.PAK", Button), new("ui", "x.bin", Ui)]));
        _dir.Write("game/data/ids.cpk", CpkTestWriter.WriteIdOnly([new(0, Ui)]));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void AFile_ReplacesItsPathInWhicheverCpkHoldsIt_WhateverTheFolderAndLetterCase()
    {
        var tex = _dir.Write("mod/crifsv2hook/Cpk/anything/Battle/TEX.dds", TestData.Random(7, 1234));
        var button = _dir.Write("mod/crifsv2hook/CPK/EN.CPK/button/button_xbox.pak", TestData.Random(8, 99));

        var plan = Resolve("mod");
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK", "data/data.cpk" }));
        Assert.That(plan.FindArchive("data/data.cpk")!.Patch.Changes.Single().Rule, Is.EqualTo("CRIFsV2Hook/CPK/anything"));
        AssertCpk("data/data.cpk", ("battle/tex.dds", File.ReadAllBytes(tex)), ("battle/zz.bin", Zz), ("sound/bgm.afs", AfsTestWriter.Write(Sounds)));
        AssertCpk("data/EN.CPK", ("BUTTON/BUTTON_XBOX.PAK", File.ReadAllBytes(button)), ("ui/x.bin", Ui));
    }

    [Test]
    public void APathTwoCpksHold_IsReplacedInBoth_NotOnlyTheFirst()
    {
        // data.cpk gets the path EN.CPK has too: the hook binds a path, so every CPK that holds it reads the mod's file.
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("battle", "tex.dds", Tex), new("ui", "x.bin", Zz)]));
        var ui = _dir.Write("mod/CRIFsV2Hook/CPK/any/UI/X.BIN", TestData.Random(16, 77));

        var plan = Resolve("mod");
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK", "data/data.cpk" }));
        AssertCpk("data/EN.CPK", ("BUTTON/BUTTON_XBOX.PAK", Button), ("ui/x.bin", File.ReadAllBytes(ui)));
        AssertCpk("data/data.cpk", ("battle/tex.dds", Tex), ("ui/x.bin", File.ReadAllBytes(ui)));
    }

    [Test]
    public void ACpkWhoseIndexCannotBeRead_IsNotSearched_TheOthersStillAre()
    {
        // The header packet reads (a named CPK), the TOC at 0x800 is cut off: the path it would hold goes to EN.CPK alone.
        var whole = CpkTestWriter.WriteNamed([new("ui", "x.bin", Zz)]);
        _dir.Write("game/data/broken.cpk", whole.AsSpan(0, 0x800).ToArray());
        var ui = _dir.Write("mod/CRIFsV2Hook/CPK/any/ui/x.bin", TestData.Random(17, 55));

        var plan = Resolve("mod");
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK" }));
        AssertCpk("data/EN.CPK", ("BUTTON/BUTTON_XBOX.PAK", Button), ("ui/x.bin", File.ReadAllBytes(ui)));
    }

    [Test]
    public void ACpkWhoseHeaderCannotBeRead_IsNotSearched_NorACpkNotNamedDotCpk()
    {
        // The hook lists the game's *.cpk files; a CPK under another name is no target, nor one whose header packet is cut.
        _dir.Write("game/data/cut.cpk", CpkTestWriter.WriteNamed([new("ui", "x.bin", Zz)]).AsSpan(0, 0x20).ToArray());
        // A header packet that looks like one (CPK, its size, @UTF) over a table that is not: read as no CPK, not an error.
        byte[] damaged = [.. "CPK "u8, 0, 0, 0, 0, .. BitConverter.GetBytes(0x40L), .. "@UTF"u8, .. Enumerable.Repeat((byte)0xFF, 0x40)];
        _dir.Write("game/data/damaged.cpk", damaged);
        _dir.Write("game/data/ui.bin", CpkTestWriter.WriteNamed([new("ui", "x.bin", Zz)]));
        var ui = _dir.Write("mod/CRIFsV2Hook/CPK/any/ui/x.bin", TestData.Random(18, 56));

        var plan = Resolve("mod");
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK" }));
        AssertCpk("data/EN.CPK", ("BUTTON/BUTTON_XBOX.PAK", Button), ("ui/x.bin", File.ReadAllBytes(ui)));
    }

    [Test]
    public void ACpkDeclaredInsideAGameFile_IsSearchedAsTheGamesCpksAre()
    {
        var inner = CpkTestWriter.WriteNamed([new("movie", "intro.usm", Zz)]);
        var pack = _dir.Write("game/data/pack.bin", [.. new byte[0x800], .. inner]);
        var slices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
        {
            ["data/pack.bin/movie.cpk"] = (ArchiveSource.Slice(pack, 0x800, inner.Length), ArchiveEmu.Core.Formats.Cpk.CpkFormat.Instance),
        };
        _dir.Write("mod/CRIFsV2Hook/CPK/any/movie/intro.usm", TestData.Random(19, 77));

        var plan = new ModRouter(_dir["game"], [_dir["mod"]], null, slices).Resolve();
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Archives.Select(a => (a.RelativePath, a.Patch.Changes.Single().Key.Name)),
            Is.EqualTo(new[] { ("data/pack.bin/movie.cpk", "movie/intro.usm") }));
    }

    [Test]
    public void APathNoCpkHolds_GoesIntoTheCpkTheFolderIsNamedAfter_ElseAWarning()
    {
        var added = _dir.Write("mod/CRIFsV2Hook/CPK/en/new/file.bin", TestData.Random(9, 333));
        _dir.Write("mod/CRIFsV2Hook/CPK/misc/nowhere.bin", TestData.Random(10, 3));

        var plan = Resolve("mod");
        Assert.That(plan.Warnings.Single(), Does.Contain("CRIFsV2Hook/CPK/misc").And.Contain("nowhere.bin").And.Contain("not used"));
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK" }));
        // The TOC is sorted, so the new path goes where its name sorts (as CRI's packer sorts it).
        AssertCpk("data/EN.CPK", ("BUTTON/BUTTON_XBOX.PAK", Button), ("new/file.bin", File.ReadAllBytes(added)), ("ui/x.bin", Ui));
    }

    [Test]
    public void APathThroughAnEntryHoldingAnArchive_ChangesThatArchive()
    {
        var voice = _dir.Write("mod/CRIFsV2Hook/CPK/sounds/SOUND/bgm.afs/1_voice.adx", TestData.Random(11, 4321));

        var bytes = Serve("data/data.cpk", "mod");
        var read = CpkIndependentReader.Read(bytes);
        var afs = _dir.Write("out/bgm.afs", Slice(bytes, read.Entries.Single(e => e.Path == "sound/bgm.afs")));
        Assert.That(AfsIndependentReader.Read(afs).Select(e => e.Sha256),
            Is.EqualTo(new[] { Sha(Sounds[0]), Sha(File.ReadAllBytes(voice)) }));
    }

    [Test]
    public void TwoMods_OnOnePath_AreAConflictNamingTheirRules_TheLaterWins()
    {
        _dir.Write("a/CRIFsV2Hook/CPK/one/battle/zz.bin", TestData.Random(12, 10));
        var b = _dir.Write("b/CRIFsV2Hook/CPK/two/BATTLE/ZZ.BIN", TestData.Random(13, 20));

        var conflict = Resolve("a", "b").Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/data.cpk", "battle/zz.bin", "b")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "CRIFsV2Hook/CPK/one", "CRIFsV2Hook/CPK/two" }));
        AssertCpk("data/data.cpk", ["a", "b"], ("battle/tex.dds", Tex), ("battle/zz.bin", File.ReadAllBytes(b)), ("sound/bgm.afs", AfsTestWriter.Write(Sounds)));
    }

    [Test]
    public void OneMod_GivingOnePathFromTwoFolders_IsAnErrorNamingBoth()
    {
        _dir.Write("mod/CRIFsV2Hook/CPK/one/battle/zz.bin", TestData.Random(12, 10));
        _dir.Write("mod/CRIFsV2Hook/CPK/two/battle/zz.bin", TestData.Random(13, 20));

        var error = Assert.Throws<IOException>(() => Resolve("mod"));
        Assert.That(error!.Message, Is.EqualTo($"{_dir["mod/CRIFsV2Hook/CPK/two/battle/zz.bin"]}: targets entry battle/zz.bin of {_dir["game/data/data.cpk"]}, "
            + $"as {_dir["mod/CRIFsV2Hook/CPK/one/battle/zz.bin"]} in the same mod does; the mod is ambiguous, keep one of them"));
    }

    [Test]
    public void AnIdOnlyCpk_HoldsNoPath_AndOtherFoldersOfTheHookAreWarnedAbout()
    {
        _dir.Write("mod/CRIFsV2Hook/CPK/ids.cpk/0.bin", TestData.Random(14, 10));
        _dir.Write("mod/CRIFsV2Hook/AWB/x.awb/0.hca", TestData.Random(15, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings, Has.Count.EqualTo(2));
        Assert.That(plan.Warnings, Has.One.Contains("CRIFsV2Hook/CPK/ids.cpk").And.Contains("0.bin"));
        Assert.That(plan.Warnings, Has.One.EqualTo($"{_dir["mod/CRIFsV2Hook/AWB"]}: ArchiveEmu reads CRIFsV2Hook/CPK only; this folder is not used"));
    }

    [Test]
    public void WhatTheHookDoesNotRead_IsOneWarningEach_SayingWhatIsThereAndWhy()
    {
        _dir.Write("mod/CRIFsV2Hook/readme.txt", TestData.Random(16, 10));
        _dir.Write("mod/CRIFsV2Hook/CPK/loose.bin", TestData.Random(17, 10));
        _dir.Write("mod/CRIFsV2Hook/CPK/en/ui/x.bin", TestData.Random(18, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Warnings, Is.EquivalentTo(new[]
        {
            $"{_dir["mod/CRIFsV2Hook/readme.txt"]}: ArchiveEmu reads CRIFsV2Hook/CPK only; this file is not used",
            $"{_dir["mod/CRIFsV2Hook/CPK/loose.bin"]}: CRI FileSystem V2 Hook reads files in a folder of CRIFsV2Hook/CPK/ "
                + "(CRIFsV2Hook/CPK/<any name>/<path in the CPK>); this file is not used",
        }));
        Assert.That(plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "data/EN.CPK" }), "what it reads still applies");
    }

    [TestCase(3, "a.bin, b.bin, c.bin")]
    [TestCase(4, "a.bin, b.bin, c.bin, …")]
    public void FilesNoCpkHolds_AreOneWarningPerFolder_NamingTheFirstThree(int count, string named)
    {
        for (int i = 0; i < count; i++)
            _dir.Write($"mod/CRIFsV2Hook/CPK/misc/{(char)('a' + i)}.bin", TestData.Random(20 + i, 5));

        Assert.That(Resolve("mod").Warnings, Is.EqualTo(new[]
        {
            $"mod folder {_dir["mod/CRIFsV2Hook/CPK/misc"]} (CRIFsV2Hook/CPK/misc): {count} file(s) at paths no CPK of the game holds, "
                + $"and no named CPK of the game is called misc, so they are not used ({named})",
        }));
    }

    private RoutePlan Resolve(params string[] mods) => new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()).Resolve();

    private void AssertCpk(string route, params (string Path, byte[] Content)[] expected) => AssertCpk(route, ["mod"], expected);

    private void AssertCpk(string route, string[] mods, params (string Path, byte[] Content)[] expected)
    {
        var read = CpkIndependentReader.Read(Serve(route, mods));
        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)), Is.EqualTo(expected.Select(e => (e.Path, Sha(e.Content)))));
    }

    private string Serve(string route, params string[] mods)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], mods.Select(m => _dir[m]).ToArray()));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write($"served-{Guid.NewGuid():N}.cpk", bytes);
    }

    private static byte[] Slice(string file, CpkIndependentReader.Entry entry) =>
        File.ReadAllBytes(file).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
