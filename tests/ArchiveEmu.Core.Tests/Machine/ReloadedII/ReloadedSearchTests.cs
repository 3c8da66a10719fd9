using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>Issue 32, <c>--reloaded</c>: where a game's Reloaded-II setup is found, with the home folder and Steam's roots given by the test.</summary>
public sealed class ReloadedSearchTests
{
    private TempDirectory _dir = null!;
    private FakeProtonPrefix _p = null!;
    private string _home = null!;

    [SetUp]
    public void CreateSetup()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _dir = new TempDirectory("reloaded-search");
        _p = new FakeProtonPrefix(Path.Combine(_dir.Path, "media"));
        _home = Path.Combine(_dir.Path, "home");
        Directory.CreateDirectory(_home);
    }

    [TearDown]
    public void DeleteSetup() => _dir?.Dispose();

    private ReloadedSearchRoots Roots(string? compat = null) => new(_home, compat, ReloadedSearchRoots.SteamRootsUnder(_home));

    [Test]
    public void Find_UnderASteamLaunch_TakesTheLaunchsProtonPrefix()
    {
        var found = ReloadedSearch.Find(_p.Game, Roots(_p.CompatData));

        Assert.That(found, Is.EqualTo(new ReloadedLocation(_p.ConfigFolder, _p.Prefix, "the Proton prefix of this Steam launch, STEAM_COMPAT_DATA_PATH")));
    }

    [Test]
    public void Find_FromATerminal_TakesThePrefixOfTheAppThatInstallsTheGameFolder()
    {
        var found = ReloadedSearch.Find(_p.Game, Roots());

        Assert.That(found, Is.EqualTo(new ReloadedLocation(_p.ConfigFolder, _p.Prefix,
            $"the Proton prefix Steam keeps for app 1687950, installed by {Path.Combine(_p.Library, "steamapps", "appmanifest_1687950.acf")}")));
    }

    [Test]
    public void Find_AGameReachedThroughALink_FindsItsLibraryInLibraryfoldersVdf()
    {
        var steam = Path.Combine(_home, ".local/share/Steam/steamapps");
        Directory.CreateDirectory(steam);
        File.WriteAllText(Path.Combine(steam, "libraryfolders.vdf"),
            $"\"libraryfolders\"\n{{\n\t\"0\"\n\t{{\n\t\t\"path\"\t\t\"{Path.Combine(_home, ".local/share/Steam")}\"\n\t}}\n"
            + $"\t\"1\"\n\t{{\n\t\t\"path\"\t\t\"{_p.Library.Replace("\\", "\\\\")}\"\n\t\t\"apps\"\n\t\t{{\n\t\t\t\"1687950\"\t\t\"123\"\n\t\t}}\n\t}}\n}}\n");
        var link = Path.Combine(_home, "Games-P5R");
        Directory.CreateSymbolicLink(link, _p.Game);

        var found = ReloadedSearch.Find(link, Roots());

        Assert.That(found.Folder, Is.EqualTo(_p.ConfigFolder));
    }

    [Test]
    public void Find_NoSteamPrefix_TakesTheSetupInWine()
    {
        var config = Path.Combine(_home, ".wine/drive_c/users/deck/AppData/Roaming/Reloaded-Mod-Loader-II");
        Directory.CreateDirectory(config);
        File.WriteAllText(Path.Combine(config, "ReloadedII.json"), "{}");
        Directory.Delete(_p.ConfigFolder, recursive: true);

        Assert.That(ReloadedSearch.Find(_p.Game, Roots()), Is.EqualTo(new ReloadedLocation(config, Path.Combine(_home, ".wine"), "the Wine prefix ~/.wine")));
    }

    [Test]
    public void Find_OnlyTheInstallersFolder_TakesItAsAPortableSetupMappedThroughTheGamesPrefix()
    {
        Directory.Delete(_p.ConfigFolder, recursive: true);
        var installer = Path.Combine(_home, "Desktop", "Reloaded-II - P5R");
        Directory.CreateDirectory(Path.Combine(installer, "Apps"));
        Directory.CreateDirectory(Path.Combine(installer, "Mods"));

        Assert.That(ReloadedSearch.Find(_p.Game, Roots()), Is.EqualTo(new ReloadedLocation(installer, _p.Prefix, "the folder Reloaded-II's Linux installer uses")));
    }

    [Test]
    public void Find_NothingAnywhere_FailsListingWhereItLooked()
    {
        Directory.Delete(_p.ConfigFolder, recursive: true);
        var other = Path.Combine(_dir.Path, "no-prefix");

        var e = Assert.Throws<IOException>(() => ReloadedSearch.Find(_p.Game, Roots(other)));

        Assert.That(e!.Message, Is.EqualTo($"{_p.Game}: no Reloaded-II setup found for this game; looked in "
            + $"{Path.Combine(other, "pfx/drive_c/users/steamuser/AppData/Roaming/Reloaded-Mod-Loader-II")}, {_p.ConfigFolder}, "
            + $"{Path.Combine(_home, ".wine/drive_c/users/<user>/AppData/Roaming/Reloaded-Mod-Loader-II")}, {Path.Combine(_home, "Desktop", "Reloaded-II - P5R")}; "
            + $"Steam roots: {string.Join(", ", ReloadedSearchRoots.SteamRootsUnder(_home))}; give its folder with --reloaded-dir PATH"));
    }
}
