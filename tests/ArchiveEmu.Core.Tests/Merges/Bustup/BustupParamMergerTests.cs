using ArchiveEmu.Core.Merges.Bustup;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Bustup;

/// <summary>
/// Issue 50: the bust-up merging mod's rule (p5rpc.bustupparam.merging, MergeIntoFinal), on entries the tests write: big-endian
/// BUSTUP_PARAM entries of 0x28 bytes keyed by (major, minor, sub), whole entries replaced, never a field.
/// </summary>
public sealed class BustupParamMergerTests
{
    private static readonly BustupParamFile Kind = BustupParamFile.Bustup;

    private static byte[] Entry(ushort major, ushort minor, ushort sub, float baseX = 1, uint flags = 0) =>
        BustupParamWriter.Bustup(major, minor, sub, baseX, flags);

    private static byte[] File(params byte[][] entries) => BustupParamWriter.File(entries);

    private static BustupParamMerger.ModFile Mod(string name, params byte[][] entries) => new(name, $"{name}/BUSTUP_PARAM.DAT", File(entries));

    private static (byte[] Merged, Core.Merges.EntryMergeReport Report) Merge(byte[] original, params BustupParamMerger.ModFile[] mods) =>
        BustupParamMerger.Merge(Kind, original, mods);

    [Test]
    public void TwoModsChangingDifferentEntries_BothApply_TheResultSortedByKey()
    {
        var original = File(Entry(2, 0, 0), Entry(1, 5, 1), Entry(1, 5, 0));
        var (merged, report) = Merge(original, Mod("a", Entry(2, 0, 0, baseX: 7)), Mod("b", Entry(1, 5, 1, flags: 3)));
        Assert.That(merged, Is.EqualTo(File(Entry(1, 5, 0), Entry(1, 5, 1, flags: 3), Entry(2, 0, 0, baseX: 7))));
        Assert.That(report.Mods.Select(m => (m.Mod, m.Fields, m.FieldsWon)), Is.EqualTo(new[] { ("a", 1, 1), ("b", 1, 1) }));
        Assert.That(report.Conflicts, Is.Empty);
    }

    [Test]
    public void TwoModsChangingOneEntry_TheLaterWinsItWhole_AndTheConflictNamesIt()
    {
        var original = File(Entry(1, 0, 0), Entry(3, 0, 0));
        var (merged, report) = Merge(original, Mod("a", Entry(3, 0, 0, baseX: 5, flags: 1)), Mod("b", Entry(3, 0, 0, baseX: 6)));
        Assert.That(merged, Is.EqualTo(File(Entry(1, 0, 0), Entry(3, 0, 0, baseX: 6))), "b's whole entry: a's flags are not kept");
        var conflict = report.Conflicts.Single();
        Assert.That((conflict.Offset, conflict.Width, conflict.Mods, conflict.Winner), Is.EqualTo((0x28L, 0x28, new[] { "a", "b" }, "b")));
    }

    [Test]
    public void ALaterModShippingTheGamesEntry_DoesNotUndoAnEarlierEdit()
    {
        var original = File(Entry(1, 0, 0), Entry(2, 0, 0));
        var (merged, report) = Merge(original, Mod("edit", Entry(2, 0, 0, baseX: 9)), Mod("whole-copy", Entry(1, 0, 0), Entry(2, 0, 0)));
        Assert.That(merged, Is.EqualTo(File(Entry(1, 0, 0), Entry(2, 0, 0, baseX: 9))));
        Assert.That(report.Mods.Select(m => m.Mod), Is.EqualTo(new[] { "edit" }));
    }

    [Test]
    public void ANewKey_IsAdded_AndDuplicateKeysKeepTheirLastEntry()
    {
        var original = File(Entry(5, 0, 0), Entry(1, 0, 0, baseX: 2), Entry(1, 0, 0, baseX: 3));
        var (merged, _) = Merge(original, Mod("new", Entry(4, 1, 2, baseX: 8), Entry(4, 1, 2, baseX: 9)));
        Assert.That(merged, Is.EqualTo(File(Entry(1, 0, 0, baseX: 3), Entry(4, 1, 2, baseX: 9), Entry(5, 0, 0))));
    }

    [Test]
    public void AFileWithNoWholeEntry_ChangesNothing_NotEvenTheOrder_AndItsTailIsReported()
    {
        var original = File(Entry(2, 0, 0), Entry(1, 0, 0));
        var (merged, report) = Merge(original, new BustupParamMerger.ModFile("short", "short/BUSTUP_PARAM.DAT", new byte[0x27]));
        Assert.That(merged, Is.EqualTo(original));
        Assert.That(report.NotApplied.Single(), Does.StartWith("short: short/BUSTUP_PARAM.DAT: its last 39 byte(s) are no whole entry of 40 bytes"));
    }

    [Test]
    public void Values_CompareAsTheModComparesThem_MinusZeroIsZero_NaNIsAlwaysAChange()
    {
        var original = File(Entry(1, 0, 0, baseX: 0), Entry(2, 0, 0, baseX: float.NaN));
        var (merged, report) = Merge(original, Mod("same", Entry(1, 0, 0, baseX: -0f), Entry(2, 0, 0, baseX: float.NaN)));
        Assert.That(merged.AsSpan(0, 0x28).ToArray(), Is.EqualTo(Entry(1, 0, 0, baseX: 0)), "-0.0 equals the game's 0.0: not a change");
        Assert.That(report.Mods.Single().Fields, Is.EqualTo(1), "NaN equals nothing, itself included: the mod's NaN entry counts as a change");
    }
}
