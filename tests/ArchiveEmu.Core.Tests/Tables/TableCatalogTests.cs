using ArchiveEmu.Core.Tables;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Tables;

public sealed class TableCatalogTests
{
    [Test]
    public void EveryP5RLayout_HasTheRecordSizeOfItsResolver()
    {
        // Record sizes Essentials' resolvers divide by (FieldResolvers/P5R/*): a slip in a layout string changes the sum.
        var sizes = new Dictionary<string, int[]>
        {
            ["BATTLE/TABLE/UNIT.TBL"] = [68, 2, 2, 1, 2, 1],
            ["BATTLE/TABLE/ITEM.TBL"] = [64, 48, 48, 12, 44, 48, 32, 24, 132, 1],
            ["BATTLE/TABLE/PERSONA.TBL"] = [1, 70, 4, 622],
            ["BATTLE/TABLE/ELSAI.TBL"] = [44, 320],
            ["BATTLE/TABLE/ENCOUNT.TBL"] = [44, 1, 1],
            ["BATTLE/TABLE/SKILL.TBL"] = [1, 1, 4, 60],
            ["BATTLE/TABLE/VISUAL.TBL"] = [200, 1, 2, 1, 4, 1],
            ["BATTLE/TABLE/AICALC.TBL"] = [1, 4, 4, 4, 4, 1, 4],
            ["BATTLE/TABLE/PLAYER.TBL"] = [4, 2, 2, 2, 4, 1],
            ["BATTLE/TABLE/EXIST.TBL"] = [2],
        };
        foreach (var (path, expected) in sizes)
            Assert.That(TableCatalog.Find(PersonaGame.P5R, path)!.Segments.Select(s => s!.RecordSize), Is.EqualTo(expected), path);
    }

    [Test]
    public void Find_MatchesTheEntryPathIgnoringCaseAndSeparators()
    {
        Assert.That(TableCatalog.Find(PersonaGame.P5R, @"battle\table\unit.tbl")?.Path, Is.EqualTo("BATTLE/TABLE/UNIT.TBL"));
        Assert.That(TableCatalog.Find(PersonaGame.P5R, "BATTLE/TABLE/UNIT.BIN"), Is.Null);
        Assert.That(TableCatalog.Find(PersonaGame.P4G, "BATTLE/TABLE/UNIT.TBL"), Is.Null);
    }

    [Test]
    public void FieldAt_WidensAByteToItsFieldInAnyRecord()
    {
        var layout = FieldLayout.Parse("2 1x2 (1 1 2)x2");
        Assert.That(layout.RecordSize, Is.EqualTo(12));
        Assert.That(layout.FieldAt(1), Is.EqualTo((0L, 2)));
        Assert.That(layout.FieldAt(3), Is.EqualTo((3L, 1)));
        Assert.That(layout.FieldAt(12 + 7), Is.EqualTo((12 + 6L, 2)));
        Assert.That(layout.FieldAt(24 + 11), Is.EqualTo((24 + 10L, 2)));
    }

    [TestCase("2 (1")]
    [TestCase("2 x")]
    [TestCase("")]
    [TestCase("0")]
    public void Parse_ABadLayout_Throws(string text) => Assert.That(() => FieldLayout.Parse(text), Throws.InstanceOf<FormatException>());

    [Test]
    public void Detect_TellsTheGameByItsExecutable()
    {
        using var dir = new TempDirectory("persona-game");
        Assert.That(PersonaGames.Detect(dir.Path), Is.Null);
        dir.Write("p4g.EXE", [0]);
        Assert.That(PersonaGames.Detect(dir.Path), Is.EqualTo(PersonaGame.P4G));
    }
}
