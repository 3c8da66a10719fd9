using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>The one line a player reads for files not applied (docs/DESIGN.md, "What is not applied"), word for word.</summary>
public sealed class NotAppliedLineTests
{
    [Test]
    public void FilesAtTheModsRoot_AreSaidToBeInTheModsRoot_AndTheFirstThreeNamed()
    {
        var line = new NotApplied("mod", "", ["a.txt", "b.txt", "c.txt", "d.txt"], "why").Line;
        Assert.That(line, Is.EqualTo("mod: 4 file(s) in the mod's root not applied: why (a.txt, b.txt, c.txt, …)"));
    }

    [TestCase(1, "a.flow")]
    [TestCase(3, "a.flow, b.flow, c.flow")]
    public void FilesInAFolder_NameTheFolderWithItsSlash_AndUpToThreeFilesWithNoEllipsis(int count, string named)
    {
        var files = new[] { "a.flow", "b.flow", "c.flow" }.Take(count).ToArray();
        var line = new NotApplied("mod", "FEmulator/BF", files, "why").Line;
        Assert.That(line, Is.EqualTo($"mod: {count} file(s) in FEmulator/BF/ not applied: why ({named})"));
    }
}
