using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>Inputs added in code as part of a game's description (<see cref="GameSetup.CodeInputs"/>): the highest-priority layer, routed like mods.</summary>
public sealed class GameSetupCodeInputTests
{
    private const string Afs = "data/voice.afs";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("code-inputs");
        _dir.Write("game/" + Afs, AfsTestWriter.Write(Enumerable.Range(0, 4).Select(i => (byte[]?)TestData.Random(i, 3000 + i)).ToArray()));
        _dir.Write("mods/a/data/voice.afs/2.bin", TestData.Random(20, 5000));
        _dir.Write("mods/b/data/voice.afs/2.bin", TestData.Random(21, 700));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    private GameSetup Setup(string[] mods, params CodeInput[] inputs) =>
        new(_dir["game"], mods.Select(m => _dir["mods/" + m]).ToArray()) { CodeInputs = inputs };

    private static CodeInput Bytes(string route, EntryKey entry, byte[] bytes, string origin = "loader") => new(route, entry, EntryInput.FromBytes(bytes), origin);

    [Test]
    public void ACodeInput_IsServedInItsEntry_AndEveryOtherEntryIsTheOriginal()
    {
        var game = EmulatedGame.Open(Setup([], Bytes(Afs, EntryKey.ByIndex(1), TestData.Random(50, 123))));

        Assert.That(Entry(game, 1), Is.EqualTo(TestData.Random(50, 123)));
        Assert.That(Entry(game, 0), Is.EqualTo(TestData.Random(0, 3000)));
        Assert.That(Entry(game, 3), Is.EqualTo(TestData.Random(3, 3003)));
        Assert.That(game.Plan.Conflicts, Is.Empty);
    }

    [Test]
    public void ACodeInput_WinsOverEveryModFolder_AndTheConflictIsRecordedAsBetweenMods()
    {
        var game = EmulatedGame.Open(Setup(["a", "b"], Bytes(Afs, EntryKey.ByIndex(2), TestData.Random(51, 64))));

        Assert.That(Entry(game, 2), Is.EqualTo(TestData.Random(51, 64)));
        var conflict = game.Plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo((Afs, "2", "loader")));
        Assert.That(conflict.Mods, Is.EqualTo(new[] { "a", "b", "loader" }));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { ModRules.Mirror, ModRules.Mirror, ModRules.Code }));
    }

    [Test]
    public void AWalkedModLayer_IsReusedByEveryResolve_AndLeftAsWalkedByTheCodeInputsLaidOverIt()
    {
        var setup = Setup(["a", "b"]);
        var walked = setup.WalkMods();

        var withInput = EmulatedGame.Open(setup with { WalkedMods = walked, CodeInputs = [Bytes(Afs, EntryKey.ByIndex(2), TestData.Random(53, 64))] });
        var without = EmulatedGame.Open(setup with { WalkedMods = walked });

        Assert.That(Entry(withInput, 2), Is.EqualTo(TestData.Random(53, 64)));
        Assert.That(withInput.Plan.Conflicts.Single().Mods, Is.EqualTo(new[] { "a", "b", "loader" }));
        Assert.That(Entry(without, 2), Is.EqualTo(TestData.Random(21, 700)));
        Assert.That(without.Plan.Conflicts.Single().Mods, Is.EqualTo(new[] { "a", "b" }));
    }

    [Test]
    public void ACodeInput_ForAnEntryModsChangeInside_WinsTheEntryWhole_AsAConflict()
    {
        Directory.CreateDirectory(_dir["tar"]);
        DotNetArchiveWriters.WriteTar(_dir["tar/inner.tar"], ("a.txt", DotNetArchiveWriters.Repeat(Encoding.ASCII.GetBytes("kept "), 300)));
        DotNetArchiveWriters.WriteZip(_dir["game/data/pack.zip"], ("inner.tar", File.ReadAllBytes(_dir["tar/inner.tar"]), false));
        _dir.Write("mods/z/data/pack.zip/inner.tar/b.bin", TestData.Random(40, 300));

        var game = EmulatedGame.Open(Setup(["z"], Bytes("data/pack.zip", EntryKey.ByName("inner.tar"), TestData.Random(52, 2000))));

        using var zip = new ZipArchive(new MemoryStream(ReadAll(game, "data/pack.zip")));
        using var inner = new MemoryStream();
        using (var stream = zip.GetEntry("inner.tar")!.Open())
            stream.CopyTo(inner);
        Assert.That(inner.ToArray(), Is.EqualTo(TestData.Random(52, 2000)));
        Assert.That(game.Plan.FindArchive("data/pack.zip")!.Nested, Is.Empty);
        Assert.That(game.Plan.Conflicts.Single().Mods, Is.EqualTo(new[] { "z", "loader" }));
    }

    [Test]
    public void CodeInputsAlone_AreRoutesOfTheGame_AndAFileThatFollowsTheirArchiveFollowsIt()
    {
        var entries = ImgTests.Entries(3, 60);
        Directory.CreateDirectory(_dir["game/models"]);
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", entries);

        var game = EmulatedGame.Open(Setup([], Bytes("models/gta3.img", EntryKey.ByName(entries[1].Name), TestData.Random(53, 100))));

        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "models/gta3.dir", "models/gta3.img" }));
        Assert.That(game.Plan.FindArchive("models/gta3.dir")!.Follows?.RelativePath, Is.EqualTo("models/gta3.img"));
    }

    private static byte[] ReadAll(EmulatedGame game, string path)
    {
        using var file = game.OpenFile(path);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    // The bytes of entry <paramref name="index"/> of the served AFS, from its table (offset, size at 8 + 8·index).
    private static byte[] Entry(EmulatedGame game, int index)
    {
        var afs = ReadAll(game, Afs);
        int offset = (int)BinaryPrimitives.ReadUInt32LittleEndian(afs.AsSpan(8 + 8 * index));
        int size = (int)BinaryPrimitives.ReadUInt32LittleEndian(afs.AsSpan(12 + 8 * index));
        return afs.AsSpan(offset, size).ToArray();
    }
}
