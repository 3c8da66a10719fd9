using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>
/// Issue 48: an entry added beside one that differs only in letter case, in a format whose names compare with letter case,
/// is warned about once, naming the entry it probably meant; wherever the archive is, and however it is served.
/// </summary>
public sealed class CaseTwinWarningTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("case-twin");
        var v1 = PakTestLayout.All[1];
        _dir.Write("game/field/f007.pak", PakTestWriter.Write(v1, [("f007.bf", TestData.Random(1, 60)), ("f007.bmd", TestData.Random(2, 40))]));
        _dir.Write("game/data/all.afs", AfsTestWriter.Write([TestData.Random(3, 30),
            PakTestWriter.Write(v1, [("msg.bmd", TestData.Random(4, 50))])]));
    }

    [TearDown]
    public void DeleteGame() => _dir?.Dispose();

    private List<string> Served(string relative)
    {
        var said = new List<string>();
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mods/m"]]) { Warn = said.Add });
        game.OpenFile(relative).Dispose();
        return said;
    }

    [Test]
    public void AnEntrySpelledInAnotherCase_InAPak_IsAddedWithOneWarning_NamingTheEntryMeant()
    {
        _dir.Write("mods/m/field/f007.pak/F007.BMD", TestData.Random(5, 20));
        Assert.That(Served("field/f007.pak"), Is.EqualTo(new[]
        {
            "field/f007.pak: entry F007.BMD (from m) is added as a new entry beside f007.bmd: PAK compares entry names with letter case, "
                + "so it replaces nothing; spell it f007.bmd to replace that entry",
        }));
    }

    [Test]
    public void ThePakInsideAnotherArchive_IsJudgedToo()
    {
        _dir.Write("mods/m/data/all.afs/1/MSG.BMD", TestData.Random(5, 20));
        Assert.That(Served("data/all.afs"), Is.EqualTo(new[]
        {
            "data/all.afs/1: entry MSG.BMD (from m) is added as a new entry beside msg.bmd: PAK compares entry names with letter case, "
                + "so it replaces nothing; spell it msg.bmd to replace that entry",
        }));
    }

    [TestCase("f007.bmd", TestName = "AnExactReplacement_HasNoWarning")]
    [TestCase("f008.bmd", TestName = "ANewName_HasNoWarning")]
    public void NoTwin_NoWarning(string entry)
    {
        _dir.Write($"mods/m/field/f007.pak/{entry}", TestData.Random(5, 20));
        Assert.That(Served("field/f007.pak"), Is.Empty);
    }
}
