using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// A mod folder that looks meant for an archive the game does not have (docs/DESIGN.md, "Letter case"): what looks like one,
/// and the warning's closest game path.
/// </summary>
public sealed class ArchiveLookalikeTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("lookalike");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void AFolderLooksLikeAnArchive_ByAnArchiveExtension_OrHoldingIndexNamedFilesOnly()
    {
        Assert.That(ArchiveLookalike.LooksLikeArchive("voice.AFS", []), Is.True, "an archive extension, letter case aside");
        Assert.That(ArchiveLookalike.LooksLikeArchive("voice", [("m/voice/3.adx", false), ("m/voice/12_x.adx", false)]), Is.True);
        Assert.That(ArchiveLookalike.LooksLikeArchive("voice", []), Is.False, "an empty folder holds no entries");
        Assert.That(ArchiveLookalike.LooksLikeArchive("voice", [("m/voice/3.adx", false), ("m/voice/readme.txt", false)]), Is.False);
        Assert.That(ArchiveLookalike.LooksLikeArchive("voice", [("m/voice/3.adx", false), ("m/voice/4", true)]), Is.False, "a folder inside");
    }

    [Test]
    public void TheClosestGamePath_AmongEquallyClose_IsTheFirstInOrdinalOrder()
    {
        foreach (var name in new[] { "d", "b", "f", "a", "e", "c" })
            _dir.Write($"game/data/{name}.afs", [1]);

        var warning = new ArchiveLookalike(_dir["game"]).Warn("m/data/z.afs", "data/z.afs");

        Assert.That(warning, Is.EqualTo("mod folder m/data/z.afs looks like an archive's entries, but the game has no file at data/z.afs "
            + "(letter case aside), so its files are added as new files; closest game path: data/a.afs"));
    }

    [Test]
    public void AGameWithNoArchiveLikeIt_IsSaidSo()
    {
        _dir.Write("game/readme.txt", [1]);
        Assert.That(new ArchiveLookalike(_dir["game"]).Warn("m/data/z.afs", "data/z.afs"), Does.EndWith("; the game has no archive like it"));
    }

    [Test]
    public void AFolderAFewLettersFromAnArchiveBesideIt_MistypesIt()
    {
        _dir.Write("game/CPK/EN.CPK", [1]);
        _dir.Write("game/CPK/readme.txt", [1]);
        var lookalike = new ArchiveLookalike(_dir["game"]);

        Assert.That(lookalike.MistypesAnArchive("CPK/EN.CKP"), Is.True, "two letters swapped");
        Assert.That(lookalike.MistypesAnArchive("CPK/en.cpk2"), Is.True, "one letter more, letter case aside");
        Assert.That(lookalike.MistypesAnArchive("CPK/EN"), Is.False, "four letters away: a new folder of its own");
        Assert.That(lookalike.MistypesAnArchive("CPK/readme.tx"), Is.False, "close to a file that is no archive");
        Assert.That(lookalike.MistypesAnArchive("DATA/EN.CKP"), Is.False, "the game has no such folder");
        Assert.That(lookalike.Warn("m/CPK/EN.CKP", "CPK/EN.CKP"), Does.EndWith("; closest game path: CPK/EN.CPK"));
    }
}
