using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 21, ID-only CPKs from a mirror mod (docs/DESIGN.md, "Mod folders and routes"): in <c>data/x.cpk/</c> a file named
/// <c>&lt;id&gt;</c> or <c>&lt;id&gt;_&lt;anything&gt;</c> replaces or adds the entry with that ID, <c>&lt;id&gt;.del</c> deletes it; a
/// named CPK keeps names. Every emulated CPK is re-read by the independent reader, entry by entry.
/// </summary>
public sealed class CpkIdRouteTests
{
    private static readonly byte[] Id0 = TestData.Random(1, 3000), Id1 = TestData.Random(2, 100), Id5 = TestData.Random(3, 70000);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cpk-id-routes");
        _dir.Write("game/data/x.cpk", CpkTestWriter.WriteIdOnly([new(0, Id0), new(1, Id1), new(5, Id5)]));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void AFlatMod_ReplacesAddsAndDeletesEntriesById()
    {
        var one = _dir.Write("mod/data/x.cpk/0001_face.dds", TestData.Random(4, 4321));
        var seven = _dir.Write("mod/data/x.cpk/7", TestData.Random(5, 90));
        _dir.Write("mod/data/x.cpk/5.del", []);

        var read = CpkIndependentReader.Read(Serve("data/x.cpk"));
        Assert.That(read.Kind, Is.EqualTo("id"));
        Assert.That(read.Entries.Select(e => (e.Id, e.ContentSha256)), Is.EqualTo(new[]
        {
            (0L, Sha(Id0)), (1L, Sha(File.ReadAllBytes(one))), (7L, Sha(File.ReadAllBytes(seven))),
        }));
    }

    [Test]
    public void TwoMods_GivingOneId_AreAConflictTheLaterWins()
    {
        _dir.Write("a/data/x.cpk/5.bin", TestData.Random(6, 10));
        var b = _dir.Write("b/DATA/X.CPK/05_voice.adx", TestData.Random(7, 20));

        var plan = new ModRouter(_dir["game"], [_dir["a"], _dir["b"]]).Resolve();
        var conflict = plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/x.cpk", "5", "b")));
        var read = CpkIndependentReader.Read(Serve("data/x.cpk", "a", "b"));
        Assert.That(read.Entries.Select(e => e.ContentSha256), Is.EqualTo(new[] { Sha(Id0), Sha(Id1), Sha(File.ReadAllBytes(b)) }));
    }

    [Test]
    public void OneMod_NamingOneIdTwice_IsAnErrorNamingBoth()
    {
        _dir.Write("mod/data/x.cpk/1.bin", TestData.Random(6, 10));
        _dir.Write("mod/data/x.cpk/1_b.bin", TestData.Random(7, 10));

        var error = Assert.Throws<IOException>(() => new ModRouter(_dir["game"], [_dir["mod"]]).Resolve());
        Assert.That(error!.Message, Does.Contain("1.bin").And.Contain("1_b.bin").And.Contain("ambiguous"));
    }

    [Test]
    public void AFolderNamedLikeAnId_ChangesTheArchiveStoredUnderThatId()
    {
        var afs = new[] { TestData.Random(8, 500), TestData.Random(9, 600) };
        _dir.Write("game/data/x.cpk", CpkTestWriter.WriteIdOnly([new(0, Id0), new(9, AfsTestWriter.Write(afs))]));
        var voice = _dir.Write("mod/data/x.cpk/9_voice.afs/1.adx", TestData.Random(10, 321));

        var read = CpkIndependentReader.Read(Serve("data/x.cpk"));
        Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new[] { 0L, 9L }));
        var inner = _dir.Write("out/9.afs", Extract(_dir["served.cpk"], read.Entries[1]));
        Assert.That(AfsIndependentReader.Read(inner).Select(e => e.Sha256),
            Is.EqualTo(new[] { AfsIndependentReader.Sha256(afs[0]), AfsIndependentReader.Sha256(File.ReadAllBytes(voice)) }));
    }

    [Test]
    public void AFolderThroughAMissingId_IsAnErrorNamingTheId()
    {
        _dir.Write("mod/data/x.cpk/3/1.adx", TestData.Random(10, 3));

        var error = Assert.Throws<ArchiveFormatException>(() => new ModRouter(_dir["game"], [_dir["mod"]]).Resolve());
        Assert.That(error!.Message, Does.Contain("data/x.cpk/3").And.Contain("no such ID"));
    }

    [Test]
    public void ANamedCpk_KeepsNames_AFlatIndexNameIsANewEntryOfThatName()
    {
        _dir.Write("game/data/x.cpk", CpkTestWriter.WriteNamed([new("", "a.bin", Id0), new("", "7.dds", Id1)]));
        var seven = _dir.Write("mod/data/x.cpk/7.dds", TestData.Random(11, 77));

        var read = CpkIndependentReader.Read(Serve("data/x.cpk"));
        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)),
            Is.EqualTo(new[] { ("a.bin", Sha(Id0)), ("7.dds", Sha(File.ReadAllBytes(seven))) }));
    }

    [Test]
    public void AnIdOnlyCpkInsideAnotherArchive_IsAddressedByItsOwnHeader_NotTheOuterFiles()
    {
        var inner = CpkTestWriter.WriteIdOnly([new(0, Id0), new(1, Id1)]);
        _dir.Write("game/data/outer.afs", AfsTestWriter.Write([Id5, inner]));
        var five = _dir.Write("mod/data/outer.afs/1_inner.cpk/5.bin", TestData.Random(12, 55));

        var served = Serve("data/outer.afs");
        var entries = AfsIndependentReader.Read(served);
        Assert.That(entries[0].Sha256, Is.EqualTo(Sha(Id5)));
        var slice = File.ReadAllBytes(served).AsSpan((int)entries[1].Offset, (int)entries[1].Size).ToArray();
        var cpk = CpkIndependentReader.Read(_dir.Write("out/inner.cpk", slice));
        Assert.That(cpk.Kind, Is.EqualTo("id"));
        Assert.That(cpk.Entries.Select(e => (e.Id, e.ContentSha256)), Is.EqualTo(new[]
        {
            (0L, Sha(Id0)), (1L, Sha(Id1)), (5L, Sha(File.ReadAllBytes(five))),
        }));
    }

    private string Serve(string route, params string[] mods)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], (mods.Length == 0 ? ["mod"] : mods).Select(m => _dir[m]).ToArray()));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write("served.cpk", bytes);
    }

    private static byte[] Extract(string cpk, CpkIndependentReader.Entry entry)
    {
        using var stream = File.OpenRead(cpk);
        var bytes = new byte[entry.FileSize];
        stream.Position = entry.Offset;
        stream.ReadExactly(bytes);
        return bytes;
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
