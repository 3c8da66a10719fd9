using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Merges.Metaphor;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Merges.Metaphor;

/// <summary>
/// Issue 50: Metaphor Essentials' table list (mrfpc.modloader 1.0.2, Merging/Tbl/MRFTblMerger.cs), as transcribed, and the game it
/// applies in. The counts are Essentials' list counted by hand: 24 files under COMMON/battle/table, 1 under COMMON/battle/sound,
/// 33 under COMMON/init/data; 33 merged in fields of 4 bytes, 21 of 2, 4 of 1.
/// </summary>
public sealed class MetaphorTableMergesTests
{
    [Test]
    public void TheList_HoldsEssentials58Tables_ByFolderAndWidth()
    {
        var tables = MetaphorTables.All;
        Assert.That(tables, Has.Count.EqualTo(58));
        Assert.That(tables.Select(t => t.Path).Distinct(StringComparer.OrdinalIgnoreCase).Count(), Is.EqualTo(58), "no path twice");
        Assert.That(tables.GroupBy(t => t.Path[..t.Path.LastIndexOf('/')]).ToDictionary(g => g.Key, g => g.Count()), Is.EqualTo(new Dictionary<string, int>
        {
            ["COMMON/battle/table"] = 24, ["COMMON/battle/sound"] = 1, ["COMMON/init/data"] = 33,
        }));
        Assert.That(tables.All(t => t.Shape == TableShape.Flat && t.Segments.Count == 1));
        Assert.That(tables.GroupBy(t => t.Segments[0]!.RecordSize).ToDictionary(g => g.Key, g => g.Count()),
            Is.EqualTo(new Dictionary<int, int> { [4] = 33, [2] = 21, [1] = 4 }));
        Assert.That(tables.Select(t => t.Path), Has.None.EndsWith("weaponModel11.bin").And.None.EndsWith("weaponModel16.bin"), "not in Essentials' list");
    }

    [Test]
    public void For_AFolderWithMetaphorsExecutable_ClaimsItsTablesByTheirPathInTheCpk_LetterCaseAndSeparatorsAside()
    {
        using var dir = new TempDirectory("metaphor-merges");
        Assert.That(MetaphorTableMerges.Instance.For(new MergeContext(dir.Path, [])), Is.Null, "no METAPHOR.exe: nothing is merged");
        dir.Write("Metaphor.EXE", [0x4D, 0x5A]);
        var merges = MetaphorTableMerges.Instance.For(new MergeContext(dir.Path, []))!;
        Assert.That(merges.Claim(@"common\BATTLE\table\SKILL.TBL"), Is.EqualTo(new MergeClaim("COMMON/battle/table/Skill.tbl", null)));
        Assert.That(merges.Claim("COMMON/init/data/weaponModel17.bin")?.Path, Is.EqualTo("COMMON/init/data/weaponModel17.bin"));
        Assert.That(merges.Claim("COMMON/init/data/weaponModel11.bin"), Is.Null);
        Assert.That(merges.Claim("BATTLE/TABLE/SKILL.TBL"), Is.Null, "a P5R table is not Metaphor's");
        Assert.That(PersonaTableMerges.Instance.For(new MergeContext(dir.Path, [])), Is.Null, "Persona's merges stay out of Metaphor's game");
    }

    [Test]
    public void EntryMerges_RegisterMetaphorsAfterPersonas() =>
        Assert.That(EntryMerges.All.Select(m => m.GetType().Name).Take(2), Is.EqualTo(new[] { nameof(PersonaTableMerges), nameof(MetaphorTableMerges) }));
}
