using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The registry: the list messages give is made from the registered formats, so a new format is listed by its registration alone.</summary>
public sealed class ArchiveFormatsTests
{
    [Test]
    public void KnownNames_ListEveryRegisteredFormat_ByItsDisplayName_InDetectionOrder()
    {
        Assert.That(ArchiveFormats.KnownNames, Is.EqualTo(string.Join(", ", ArchiveFormats.All.Select(f => f.DisplayName))));
        Assert.That(ArchiveFormats.KnownNames,
            Is.EqualTo("AFS, AWB, ACB, CPK, IMG v2, SPD, SPR, IMG v1 with its .dir, tar, ZIP, RenderWare TXD, PAK"));
        Assert.That(ArchiveFormats.All.Select(f => f.DisplayName), Is.Unique);
    }

    [Test]
    public void ReadIndex_OfAFileNoFormatKnows_NamesEveryFormat()
    {
        using var temp = new TempDirectory("formats");
        var path = Path.Combine(temp.Path, "notes.txt");
        File.WriteAllText(path, "not an archive");

        Assert.That(() => ArchiveFormats.ReadIndex(path), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("not an archive format ArchiveEmu knows (" + ArchiveFormats.KnownNames + ")"));
    }
}
