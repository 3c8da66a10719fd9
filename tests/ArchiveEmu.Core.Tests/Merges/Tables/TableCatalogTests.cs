using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

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
    public void EveryP4GAndP3PTable_HasTheSegmentCountAndRecordSizesOfEssentials()
    {
        // Segment counts: P4GTblSegmentFinder / P3PTblSegmentFinder.GetSegmentCount; record sizes: the resolvers; 0 = kept.
        var p4g = new Dictionary<string, int[]>
        {
            ["AICALC.TBL"] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0],
            ["EFFECT.TBL"] = [1],
            ["ENCOUNT.TBL"] = [2, 1, 1, 1, 1],
            ["MODEL.TBL"] = [2, 2, 2],
            ["MSG.TBL"] = [21, 23, 21, 21, 0],
            ["PERSONA.TBL"] = [1, 70, 622, 4, 1, 2],
            ["SKILL.TBL"] = [1, 1],
            ["UNIT.TBL"] = [60, 2, 2],
        };
        var p3p = new Dictionary<string, int[]>
        {
            ["AICALC.TBL"] = [.. Enumerable.Repeat(1, 16), 0, 0],
            ["EFFECT.TBL"] = [1, 0, 0, 0, 0],
            ["ENCOUNT.TBL"] = [2, 0, 0, 0, 0],
            ["MODEL.TBL"] = [2, 2, 2],
            ["MSG.TBL"] = [21, 19, 19, 17, 0],
            ["PERSONA.TBL"] = [1, 70, 622, 4, 1, 2, .. Enumerable.Repeat(1, 10)],
            ["SKILL.TBL"] = [1, 40, 1],
            ["UNIT.TBL"] = [62, 2, 2],
        };
        foreach (var (game, sizes) in new[] { (PersonaGame.P4G, p4g), (PersonaGame.P3P, p3p) })
        {
            foreach (var (name, expected) in sizes)
            {
                var table = TableCatalog.Find(game, "init_free.bin/battle/" + name)!;
                Assert.That(table.Segments.Select(s => s?.RecordSize ?? 0), Is.EqualTo(expected), $"{game} {name}");
                Assert.That(table.LittleEndian, Is.True);
            }
        }
        Assert.That(TableCatalog.Find(PersonaGame.P4G, "init_free.bin/init/itemtbl.bin")!.Segments.Select(s => s!.RecordSize), Is.EqualTo(new[] { 68, 1, 24 }));
        Assert.That(TableCatalog.Find(PersonaGame.P3P, "init_free.bin/init/itemtbl.bin")!.Segments.Select(s => s!.RecordSize), Is.EqualTo(new[] { 1, 2, 1 }));
    }

    [Test]
    public void CompanionAt_FindsTheTableWhoseSegmentAFileBesideItReplaces()
    {
        Assert.That(TableCatalog.CompanionAt(PersonaGame.P4G, "INIT_FREE.BIN/battle/msgtbl.bmd"), Is.EqualTo((TableCatalog.Find(PersonaGame.P4G, "init_free.bin/battle/MSG.TBL")!, "MSGTBL.bmd")));
        Assert.That(TableCatalog.CompanionAt(PersonaGame.P3P, "init_free.bin/battle/enemy.bf")?.Table.Companions["enemy.bf"], Is.EqualTo(17));
        Assert.That(TableCatalog.CompanionAt(PersonaGame.P4G, "init_free.bin/field/enemy.bf"), Is.Null);
        Assert.That(TableCatalog.CompanionAt(PersonaGame.P5R, "BATTLE/TABLE/MSGTBL.bmd"), Is.Null);
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
        Assert.That(PersonaGames.Detect(new MergeContext(dir.Path, [])), Is.Null);
        dir.Write("p4g.EXE", [0]);
        Assert.That(PersonaGames.Detect(new MergeContext(dir.Path, [])), Is.EqualTo(PersonaGame.P4G));
    }
}
