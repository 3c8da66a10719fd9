using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// How one archive's changes match entry keys: an index only the same index, a name only a name by the format's rule. A dictionary
/// asks Equals only for keys of one hash, so these are checked directly, not through a route.
/// </summary>
public sealed class EntryKeyComparerTests
{
    private static readonly EntryKeyComparer IgnoringCase = new(StringComparer.OrdinalIgnoreCase);

    [Test]
    public void AnIndex_EqualsTheSameIndexOnly()
    {
        Assert.That(IgnoringCase.Equals(EntryKey.ByIndex(3), EntryKey.ByIndex(3)), Is.True);
        Assert.That(IgnoringCase.Equals(EntryKey.ByIndex(3), EntryKey.ByIndex(4)), Is.False);
        Assert.That(IgnoringCase.Equals(EntryKey.ByIndex(3), EntryKey.ByName("3")), Is.False);
    }

    [Test]
    public void AName_EqualsANameEqualByTheFormatsRule_NeverAnIndex()
    {
        Assert.That(IgnoringCase.Equals(EntryKey.ByName("Battle/Unit.tbl"), EntryKey.ByName("BATTLE/UNIT.TBL")), Is.True);
        Assert.That(IgnoringCase.Equals(EntryKey.ByName("a.bin"), EntryKey.ByName("b.bin")), Is.False);
        Assert.That(IgnoringCase.Equals(EntryKey.ByName("3"), EntryKey.ByIndex(3)), Is.False);
        // ByName's index is -1 whatever the name: two names must never meet through it
        Assert.That(IgnoringCase.Equals(EntryKey.ByName("-1"), EntryKey.ByIndex(-1)), Is.False);
        var ordinal = new EntryKeyComparer(StringComparer.Ordinal);
        Assert.That(ordinal.Equals(EntryKey.ByName("a.bin"), EntryKey.ByName("A.BIN")), Is.False);
    }

    [Test]
    public void AKeysHash_IsItsIndex_OrItsNamesHashByTheFormatsRule()
    {
        Assert.That(IgnoringCase.GetHashCode(EntryKey.ByIndex(7)), Is.EqualTo(7));
        Assert.That(IgnoringCase.GetHashCode(EntryKey.ByName("Battle/Unit.tbl")),
            Is.EqualTo(StringComparer.OrdinalIgnoreCase.GetHashCode("BATTLE/UNIT.TBL")));
    }
}
