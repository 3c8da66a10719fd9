using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 22, IMG v1, through routing and the library: a mod folder <c>models/gta3.img/</c> changes the data file, and the
/// game's <c>models/gta3.dir</c> follows it as a route of its own; both are served and re-read as a pair by
/// ImgV1IndependentReader. A mod file replacing the .dir is one error naming it; a changed .dir is a new cache key.
/// </summary>
public sealed class ImgV1PairTests
{
    private TempDirectory _dir = null!;
    private List<(string Name, byte[] Data)> _entries = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("api-imgv1");
        Directory.CreateDirectory(_dir["game/models"]);
        _entries = ImgTests.Entries(5, 30);
        _entries[2] = ("infernus.txd", TestData.Random(31, 3000));
    }

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase("gta3.dir")]
    [TestCase("GTA3.DIR")]
    public void AModChangingTheImg_TheDirBesideItFollows_AndThePairReadsBackAsTheModSays(string dirName)
    {
        var (img, dir) = ImgV1TestWriter.Write(_entries);
        _dir.Write("game/models/gta3.img", img);
        _dir.Write("game/models/" + dirName, dir);
        var txd = _dir.Write("mod/models/gta3.img/INFERNUS.TXD", TestData.Random(32, 9000));
        var added = _dir.Write("mod/models/gta3.img/new.dff", TestData.Random(33, 100));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "models/" + dirName, "models/gta3.img" }), "the .dir keeps the game's spelling");
        var read = ImgV1IndependentReader.Read(Read(emulator, "models/gta3.img"), Read(emulator, "models/" + dirName));

        _entries[2] = ("infernus.txd", File.ReadAllBytes(txd));
        _entries.Add(("new.dff", File.ReadAllBytes(added)));
        Assert.That(read.Select(e => e.Name), Is.EqualTo(_entries.Select(e => e.Name)));
        Assert.That(read.Select(e => e.Bytes), Is.EqualTo(_entries.Select(e => ImgTestWriter.Padded(e.Data))));
        Assert.That(emulator.Describe("models/" + dirName).Select(e => e.State), Is.EqualTo(emulator.Describe("models/gta3.img").Select(e => e.State)));
    }

    [Test]
    public void AnInputAddedInCodeForTheImg_ReachesTheDirThatFollows()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        _dir.Write("mod/models/gta3.img/e0.dff", TestData.Random(34, 10));
        var bigger = TestData.Random(35, 7000);

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        emulator.AddBytes("models/gta3.img", EntryKey.ByName("e4.txd"), bigger);
        var read = ImgV1IndependentReader.Read(Read(emulator, "models/gta3.img"), Read(emulator, "models/gta3.dir"));
        Assert.That(read[4].Bytes, Is.EqualTo(ImgTestWriter.Padded(bigger)));
        Assert.That(read[0].Bytes, Is.EqualTo(ImgTestWriter.Padded(TestData.Random(34, 10))));
    }

    [Test]
    public void InputsAddedInCodeAlone_MakeTheDirFollow_AndALaterOneReachesADirAlreadyOpened()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        var bigger = TestData.Random(36, 30000); // more sectors than any original entry (at most 9000 bytes)

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddBytes("models/gta3.img", EntryKey.ByName("e0.dff"), TestData.Random(37, 10));
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "models/gta3.dir", "models/gta3.img" }));
        Assert.That(emulator.Describe("models/gta3.dir")[4].Size, Is.EqualTo(ImgTestWriter.Padded(_entries[4].Data).Length)); // built and kept
        emulator.AddBytes("models/gta3.img", EntryKey.ByName("e4.txd"), bigger);
        var read = ImgV1IndependentReader.Read(Read(emulator, "models/gta3.img"), Read(emulator, "models/gta3.dir"));
        Assert.That(read[0].Bytes, Is.EqualTo(ImgTestWriter.Padded(TestData.Random(37, 10))));
        Assert.That(read[4].Bytes, Is.EqualTo(ImgTestWriter.Padded(bigger)));
        Assert.That(read.Skip(1).Take(3).Select(e => e.Bytes), Is.EqualTo(_entries.Skip(1).Take(3).Select(e => ImgTestWriter.Padded(e.Data))));
    }

    [Test]
    public void AModChangingAnArchiveInsideAnEntry_TheDirDescribesTheEmulatedInnerArchive()
    {
        var v1 = PakTestLayout.All.First(l => l.Variant == "V1" && l.Terminator); // zero-padded to a sector: V1 ends at a zero record
        _entries[2] = ("inner.pak", PakTestWriter.Write(v1, [("a.bin", TestData.Random(41, 100)), ("b.bin", TestData.Random(42, 100))]));
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        _dir.Write("mod/models/gta3.img/inner.pak/a.bin", TestData.Random(43, 5000));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        var read = ImgV1IndependentReader.Read(Read(emulator, "models/gta3.img"), Read(emulator, "models/gta3.dir"));
        Assert.That(read[2].Sectors, Is.GreaterThan(2).And.EqualTo(emulator.Describe("models/gta3.img")[2].Size / 2048),
            "the inner PAK grew past one sector, and the .dir says by how much");
        // The PAK the writer makes of the mod's result, padded to the sector: the emulated inner PAK, byte for byte.
        var expected = PakTestWriter.Write(v1, [("a.bin", TestData.Random(43, 5000)), ("b.bin", TestData.Random(42, 100))]);
        Assert.That(read[2].Bytes.AsSpan(0, expected.Length).ToArray(), Is.EqualTo(expected));
        Assert.That(read[2].Bytes.Skip(expected.Length), Is.All.Zero);
        Assert.That(read.Where((_, i) => i != 2).Select(e => e.Bytes), Is.EqualTo(_entries.Where((_, i) => i != 2).Select(e => ImgTestWriter.Padded(e.Data))));
    }

    [Test]
    public void AnInputAddedInCodeForTheDir_IsRefusedNamingTheImg()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        _dir.Write("mod/models/gta3.img/e0.dff", TestData.Random(44, 10));
        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        emulator.AddBytes("models/gta3.dir", EntryKey.ByName("e1.txd"), TestData.Random(45, 10));
        Assert.That(() => emulator.Open("models/gta3.dir").Dispose(), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(_dir["game/models/gta3.dir"]).And.Message.Contains("give changes to models/gta3.img"));
    }

    [Test]
    public void AModFileReplacingTheDir_WhileModsChangeTheImg_IsOneErrorNamingIt()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        _dir.Write("cars/models/gta3.img/infernus.txd", TestData.Random(36, 10));
        var whole = _dir.Write("other/models/GTA3.DIR", new byte[64]);

        var error = Assert.Throws<IOException>(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["cars"], _dir["other"]])))!;
        Assert.That(error.Message, Does.StartWith(whole).And.Contain("models/gta3.dir").And.Contain("models/gta3.img"));
    }

    [Test]
    public void BothFilesReplacedWhole_AreTwoPlainOverrides()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        Directory.CreateDirectory(_dir["mod/models"]);
        ImgV1TestWriter.WriteFiles(_dir["mod/models"], "gta3", _entries.Take(2).ToList());
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        Assert.That(game.Plan.Archives, Is.Empty);
        Assert.That(game.Plan.Overrides.Select(o => o.RelativePath).Order(), Is.EqualTo(new[] { "models/gta3.dir", "models/gta3.img" }));
    }

    [Test]
    public void AGameImgWithADamagedDir_IsOneErrorNamingTheDir()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        File.WriteAllBytes(_dir["game/models/gta3.dir"], new byte[33]);
        _dir.Write("mod/models/gta3.img/infernus.txd", TestData.Random(37, 10));
        var error = Assert.Throws<ArchiveFormatException>(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])))!;
        Assert.That(error.Message, Does.Contain(_dir["game/models/gta3.dir"]).And.Contain("IMG v1"));
    }

    [Test]
    public void AModFolderNamedLikeTheDir_IsOneErrorPointingAtTheImgsFolder()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        var folder = Path.GetDirectoryName(_dir.Write("mod/models/gta3.dir/infernus.txd", TestData.Random(40, 10)))!;
        var error = Assert.Throws<ArchiveFormatException>(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])))!;
        Assert.That(error.Message, Does.Contain(folder).And.Contain("directory of the IMG v1 archive gta3.img").And.Contain("gta3.img/"));
    }

    [Test]
    public void BothCacheKeys_ChangeWhenTheDirChanges_OrTheModsInputDoes()
    {
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", _entries);
        var txd = _dir.Write("mod/models/gta3.img/infernus.txd", TestData.Random(38, 10));

        (string Img, string Dir) Versions()
        {
            var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
            return (game.Server.VersionOf(game.Plan.FindArchive("models/gta3.img")!), game.Server.VersionOf(game.Plan.FindArchive("models/gta3.dir")!));
        }

        var before = Versions();
        Assert.That(Versions(), Is.EqualTo(before), "the same files: the same keys");
        var dir = File.ReadAllBytes(_dir["game/models/gta3.dir"]);
        dir[8] = (byte)'E'; // e0.dff -> E0.dff: same size, new bytes
        File.WriteAllBytes(_dir["game/models/gta3.dir"], dir);
        var afterDir = Versions();
        Assert.That(afterDir.Img, Is.Not.EqualTo(before.Img));
        Assert.That(afterDir.Dir, Is.Not.EqualTo(before.Dir));
        File.WriteAllBytes(txd, TestData.Random(39, 11));
        Assert.That(Versions().Dir, Is.Not.EqualTo(afterDir.Dir), "the .dir follows the .img's inputs");
    }

    [Test]
    public void AnImgV1InsideAnotherFile_HasNoDirAndIsRefused()
    {
        var (img, _) = ImgV1TestWriter.Write(_entries);
        var holder = _dir.Write("game/holder.bin", [.. new byte[16], .. img]);
        var error = Assert.Throws<ArchiveFormatException>(() => ImgV1Format.Instance.ReadIndex(ArchiveSource.Slice(holder, 16, img.Length)))!;
        Assert.That(error.Message, Does.Contain(holder).And.Contain("no .dir"));
    }

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var file = emulator.Open(route);
        return AcbTests.Materialise(file);
    }
}
