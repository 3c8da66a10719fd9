using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>How a mod file's name addresses an entry (docs/DESIGN.md, "Mod folder layout"): the mirror rule and FEF's index rule.</summary>
public sealed class EntryFileNameTests
{
    [TestCase("5.adx", 5)]
    [TestCase("0005.adx", 5)]
    [TestCase("5_name.adx", 5)]
    [TestCase("5name.adx", 5)] // FEF takes the digits whatever follows them
    [TestCase("123456789.adx", 123456789)]
    [TestCase("1234567890.adx", null)] // ten digits: too many for an index
    [TestCase("name.adx", null)]
    [TestCase(".adx", null)]
    public void FefIndex_IsTheOneToNineDigitsStartingTheName(string name, int? index) =>
        Assert.That(EntryFileName.FefIndex(name), Is.EqualTo(index));

    [TestCase("7.dds", 7)]
    [TestCase("0007.dds", 7)]
    [TestCase("7_hero.dds", 7)]
    [TestCase("42", 42)]
    [TestCase("123456789", 123456789)]
    public void AnIndexName_StartsWithOneToNineDigitsEndedByADotAnUnderscoreOrTheName(string name, int index)
    {
        Assert.That(EntryFileName.IsIndexName(name), Is.True);
        Assert.That(EntryFileName.IndexOf(name), Is.EqualTo(index));
    }

    [TestCase("7hero.dds")]
    [TestCase("1234567890.dds")]
    [TestCase("hero.dds")]
    public void AnyOtherName_IsNoIndexName(string name) => Assert.That(EntryFileName.IsIndexName(name), Is.False);

    [Test]
    public void InAnIndexArchive_AFileInAFolderNotNamedByAnEntry_IsOneErrorNamingIt_WordForWord()
    {
        Assert.That(() => EntryFileName.Parse("voice/1.adx", EntryAddressing.ByIndex, "/m/data/snd.afs/voice/1.adx"), Throws.InstanceOf<IOException>()
            .With.Message.EqualTo("/m/data/snd.afs/voice/1.adx: entries of an index-addressed archive go directly in its folder, not in a subfolder "
                + "(but for an archive inside entry 7, a folder named like the entry: 7/…, 7_name.pak/…)"));
        Assert.That(() => EntryFileName.Parse("voice.adx", EntryAddressing.ByIndex, "/m/data/snd.afs/voice.adx"), Throws.InstanceOf<IOException>()
            .With.Message.EqualTo("/m/data/snd.afs/voice.adx: name must start with the entry's index (7.dds, 0007.dds, 7_name.dds)"));
    }

    [Test]
    public void TheDeleteSuffix_DeletesInTheMirrorRule_AndIsANameInFefs()
    {
        Assert.That(EntryFileName.Parse("a/b.bin.del", EntryAddressing.ByName, "f"), Is.EqualTo((EntryKey.ByName("a/b.bin"), true)));
        Assert.That(EntryFileName.Parse("5.DEL", EntryAddressing.ByIndex, "f"), Is.EqualTo((EntryKey.ByIndex(5), true)));
        Assert.That(EntryFileName.ParseFef("a/b.bin.del", EntryAddressing.ByName, "f"), Is.EqualTo((EntryKey.ByName("a/b.bin.del"), false)));
    }
}
