using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>
/// Issue 48: a ModConfig.json, or a mod folder, reached through a link that leads out of Reloaded-II's Mods folder was read
/// as a mod (downloaded mods carry links, and --mod already refuses a link out of a mod). Now each is skipped with one line
/// naming where it leads. The Mods folder itself may be a link (players keep it on another drive), and a link inside it
/// that stays inside is followed.
/// </summary>
public sealed class ReloadedModsLinkTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void Create()
    {
        LinuxOnly.RequireSymlinks();
        _dir = new TempDirectory("reloaded-links");
    }

    [TearDown]
    public void Delete() => _dir?.Dispose(); // null when SetUp skipped (no symlinks: Windows, Wine)

    private string Mod(string folder, string id) =>
        _dir.Write($"{folder}/ModConfig.json", System.Text.Encoding.UTF8.GetBytes($"{{\"ModId\":\"{id}\",\"ModName\":\"{id}\"}}"));

    [Test]
    public void LinksOutOfTheModsFolder_AreSkippedWithOneLineEach_AModsFolderThatIsALinkIsRead()
    {
        Mod("drive2/Mods/good", "good");
        Mod("drive2/Mods/grouped/inner", "inner");
        Mod("elsewhere/outside-mod", "outside.folder");
        var outsideConfig = Mod("elsewhere/loose", "outside.config");
        Directory.CreateSymbolicLink(_dir["drive2/Mods/linked-mod"], _dir["elsewhere/outside-mod"]);
        Directory.CreateDirectory(_dir["drive2/Mods/config-link"]);
        File.CreateSymbolicLink(_dir["drive2/Mods/config-link/ModConfig.json"], outsideConfig);
        Directory.CreateSymbolicLink(_dir["drive2/Mods/alias"], _dir["drive2/Mods/grouped"]); // inside: read once, at its real path
        Directory.CreateSymbolicLink(_dir["Mods"], _dir["drive2/Mods"]); // the Mods folder on another drive

        var problems = new List<string>();
        var mods = ReloadedModConfigs.ReadAll(_dir["Mods"], problems);

        Assert.That(mods.Select(m => m.Id).Order(StringComparer.Ordinal), Is.EqualTo(new[] { "good", "inner" }));
        Assert.That(problems.Order(StringComparer.Ordinal), Is.EqualTo(new[]
        {
            $"{_dir["Mods/config-link/ModConfig.json"]}: leads out of the Mods folder {_dir["Mods"]} (to {outsideConfig}); the mod is skipped, as a link out of a mod folder is",
            $"{_dir["Mods/linked-mod/ModConfig.json"]}: leads out of the Mods folder {_dir["Mods"]} (to {_dir["elsewhere/outside-mod/ModConfig.json"]}); the mod is skipped, as a link out of a mod folder is",
        }));
    }
}
