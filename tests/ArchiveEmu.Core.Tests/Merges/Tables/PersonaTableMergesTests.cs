using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>Persona's tables as a registered entry merge (issue 49, part 3): which game, which archives, which entries it claims.</summary>
public sealed class PersonaTableMergesTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("persona-merges");

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private IGameMerges? GameWith(string exe)
    {
        _dir.Write($"{exe}/{exe}", [0x4D, 0x5A]);
        return EntryMerges.For(new MergeContext(Path.Combine(_dir.Path, exe), []), ArchiveFormats.ByName("cpk")!).SingleOrDefault();
    }

    [Test]
    public void AFolderWithNoPersonaExecutable_HasNoPersonaMerges()
    {
        Assert.That(GameWith("Sonic.exe"), Is.Null);
        Assert.That(GameWith("METAPHOR.exe")!.Claim("BATTLE/TABLE/UNIT.TBL"), Is.Null, "Metaphor's merges (issue 50) claim no P5R table");
    }

    [Test]
    public void P5R_ClaimsItsCatalogedTables_InAnyLetterCase_AsTheCatalogSpellsThem()
    {
        var p5r = GameWith("p5r.EXE")!;
        Assert.That(p5r.Claim("battle\\table\\unit.tbl"), Is.EqualTo(new MergeClaim("BATTLE/TABLE/UNIT.TBL", null)));
        Assert.That(p5r.Claim("BATTLE/TABLE/UNIT.BIN"), Is.Null);
        Assert.That(p5r.Claim("init_free.bin/battle/UNIT.TBL"), Is.Null, "P4G's path, not P5R's");
    }

    [Test]
    public void P4G_ClaimsACompanionFile_ForTheTableItReplacesASegmentOf()
    {
        var p4g = GameWith("P4G.exe")!;
        Assert.That(p4g.Claim("init_free.bin/battle/msgtbl.BMD"), Is.EqualTo(new MergeClaim("init_free.bin/battle/MSG.TBL", "MSGTBL.bmd")));
        Assert.That(p4g.Claim("init_free.bin/battle/UNIT.TBL"), Is.EqualTo(new MergeClaim("init_free.bin/battle/UNIT.TBL", null)));
    }

    [Test]
    public void OnlyCpks_HoldMergedTables()
    {
        _dir.Write("P5R/P5R.exe", [0x4D, 0x5A]);
        Assert.That(EntryMerges.For(new MergeContext(_dir["P5R"], []), ArchiveFormats.ByName("cpk")!), Has.Count.EqualTo(1));
        Assert.That(EntryMerges.For(new MergeContext(_dir["P5R"], []), ArchiveFormats.ByName("zip")!), Is.Empty);
    }
}
