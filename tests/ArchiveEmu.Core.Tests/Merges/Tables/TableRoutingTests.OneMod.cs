using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>Which of one mod's files for a table is merged, when the mod gives it twice or deletes it.</summary>
public sealed partial class TableRoutingTests
{
    [Test]
    public void OneModGivingATableByTwoHookFolders_MergesTheMoreSpecificOnesFile()
    {
        var (original, _, b) = WriteP5R(withExe: true);
        var later = UnitSegments();
        later[0][68 * 3 + 10] = 0x66; // another field than a's CRIFsV2Hook file changes
        var essentials = _dir.Write("a/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(later));

        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a", "b"));

        // CRI FileSystem V2 Hook probes P5REssentials/CPK after CRIFsV2Hook/CPK and binds the last: that file is a's table.
        var expected = ReferenceTableMerger.MergeTbl(original, [("a", File.ReadAllBytes(essentials)), ("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        Assert.That(read.Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256, Is.EqualTo(Sha(expected)));
        Assert.That(Resolve("a", "b").FindArchive("CPK/EN.CPK")!.Merges.Single().Mods.Select(m => (m.Mod, m.Fields)),
            Is.EqualTo(new[] { ("a", 1), ("b", 5) }));
    }

    [Test]
    public void ALaterModDeletingATable_DeletesIt_NoMergeReadsTheDelFile()
    {
        WriteP5R(withExe: true);
        _dir.Write("gone/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL.del", []);

        var plan = Resolve("a", "b", "gone");
        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a", "b", "gone"));

        Assert.That(read.Entries.Select(e => e.Path), Is.EqualTo(new[] { "FONT/FONT0.FNT" }));
        Assert.That(plan.FindArchive("CPK/EN.CPK")!.Merges, Is.Empty);
        Assert.That(plan.Conflicts.Single().Winner, Is.EqualTo("gone"));
    }

    [Test]
    public void AModDeletingATable_BetweenTwoThatEditIt_LeavesOnlyTheLatersEditsToMerge()
    {
        var (original, _, b) = WriteP5R(withExe: true);
        _dir.Write("gone/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL.del", []);

        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a", "gone", "b"));

        var expected = ReferenceTableMerger.MergeTbl(original, [("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        Assert.That(read.Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256, Is.EqualTo(Sha(expected)));
        Assert.That(Resolve("a", "gone", "b").FindArchive("CPK/EN.CPK")!.Merges.Single().Mods.Select(m => m.Mod), Is.EqualTo(new[] { "b" }));
    }
}
