using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Machine.Steam;

/// <summary>
/// Issue 49: one lookup of "the manifest whose install folder is this one" (<see cref="SteamAppManifest.Installing"/>), for the
/// game's language, its Proton prefix and doctor. Before, the language and the Proton prefix each had their own, and only
/// the language's found a manifest whose installdir differs from the folder in letter case.
/// </summary>
public sealed class SteamAppManifestTests
{
    private TempDirectory _dir = null!;
    private List<string> _unreadable = null!;

    [SetUp]
    public void CreateLibrary()
    {
        _dir = new TempDirectory("appmanifest");
        _unreadable = [];
        Directory.CreateDirectory(_dir["library/steamapps/common/P5R"]);
        Directory.CreateDirectory(_dir["library/steamapps/compatdata/1687950/pfx"]);
    }

    [TearDown]
    public void DeleteLibrary() => _dir?.Dispose();

    private string Steamapps => _dir["library/steamapps"];

    private string Manifest(string appId, string installDir) =>
        _dir.Write($"library/steamapps/appmanifest_{appId}.acf", System.Text.Encoding.UTF8.GetBytes(SteamManifestText.For(appId, installDir, "english")));

    private string[] Found(string game) => SteamAppManifest.Installing(game, [Steamapps], _unreadable).Select(m => m.Path).ToArray();

    [Test]
    public void TheExactInstallDir_WinsOverOneInAnotherLetterCase()
    {
        Manifest("1", "p5r");
        var exact = Manifest("2", "P5R");
        Assert.That(Found(_dir["library/steamapps/common/P5R"]), Is.EqualTo(new[] { exact }));
    }

    [Test]
    public void OnlyOneInAnotherLetterCase_IsTheGames()
    {
        var caseOnly = Manifest("1", "p5r");
        Manifest("2", "Other");
        Assert.That(Found(_dir["library/steamapps/common/P5R"]), Is.EqualTo(new[] { caseOnly }));
    }

    [Test]
    public void AGameFolderReachedThroughALink_IsFoundByItsRealPath()
    {
        LinuxOnly.RequireSymlinks();
        var manifest = Manifest("1", "P5R");
        var link = _dir["elsewhere/Games-P5R"];
        Directory.CreateDirectory(_dir["elsewhere"]);
        Directory.CreateSymbolicLink(link, _dir["library/steamapps/common/P5R"]);
        Assert.That(Found(link), Is.EqualTo(new[] { manifest }));
    }

    [Test]
    public void AGarbledManifest_IsOneLine_AndTheRestAreRead()
    {
        var garbled = _dir.Write("library/steamapps/appmanifest_9.acf", "\"AppState\"\n{\n"u8.ToArray());
        var manifest = Manifest("1", "P5R");
        Assert.That(Found(_dir["library/steamapps/common/P5R"]), Is.EqualTo(new[] { manifest }));
        Assert.That(_unreadable, Has.Count.EqualTo(1).And.Some.StartWith($"{garbled}: Steam's manifest cannot be read ("));
    }

    [Test]
    public void TheProtonPrefix_IsFoundByTheSameLookup_AnInstallDirInAnotherLetterCaseToo()
    {
        var manifest = Manifest("1687950", "p5r");
        var found = SteamLibraries.CompatDataOf(_dir["library/steamapps/common/P5R"], [], _unreadable).ToArray();
        Assert.That(found, Is.EqualTo(new[] { ("1687950", manifest, _dir["library/steamapps/compatdata/1687950"]) }));
    }
}
