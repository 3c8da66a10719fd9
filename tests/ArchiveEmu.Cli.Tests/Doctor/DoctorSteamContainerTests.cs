using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 32: whether Steam's container (pressure-vessel) would see the game folder, by steam-runtime-tools' docs/shared-paths.md:
/// the home folder, /tmp, /var/tmp, the game's Steam install folder and what PRESSURE_VESSEL_FILESYSTEMS_RW adds are seen; a
/// folder outside them (as removable media under /mnt or /run/media outside a Steam library) is a warning, never a failure.
/// The games sit under the test's own output folder, and /tmp is not taken as shared (DoctorRun.Machine), since the
/// repository itself may be under /tmp.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DoctorSteamContainerTests
{
    private string _root = "";

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("Steam's container");
        _root = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, $"doctor-steam-{Guid.NewGuid():N}")).FullName;
    }

    [TearDown]
    public void DeleteFolder()
    {
        if (_root.Length > 0)
            Directory.Delete(_root, recursive: true);
    }

    private string MakeGame(string relative)
    {
        var game = Directory.CreateDirectory(Path.Combine(_root, relative)).FullName;
        File.WriteAllText(Path.Combine(game, "readme.txt"), "game");
        return game;
    }

    private static string ContainerLine(string game, string home, IReadOnlyDictionary<string, string>? environment = null) =>
        DoctorRun.Line(DoctorRun.Run(DoctorRun.Machine(home, environment), "--game", game, "--no-cache"), "Steam container");

    [Test]
    public void Doctor_AGameOutsideWhatTheContainerShares_IsAWarningWithTheWaysIn()
    {
        var game = MakeGame("media/sdcard/Games/P5R");
        var home = Path.Combine(_root, "home");
        var result = DoctorRun.Run(DoctorRun.Machine(home), "--game", game, "--no-cache");
        Assert.That(DoctorRun.Line(result, "Steam container"),
            Is.EqualTo($"warn Steam container          {game}: outside what Steam's container (pressure-vessel) shares, so a Proton game may not see it"));
        Assert.That(DoctorRun.FixOf(result, "Steam container"), Is.EqualTo("     fix:                     install the game through Steam "
            + $"(a Steam library folder is shared) or move it under {home}; or add PRESSURE_VESSEL_FILESYSTEMS_RW={game} before %command% in the launch options"));
        Assert.That(result.ExitCode, Is.Zero, "a warning: a native game without the runtime sees everything");
    }

    [Test]
    public void Doctor_AGameUnderAFolderTheContainerSharesForTemporaryFiles_IsSeen()
    {
        var game = MakeGame("tmp/Games/P5R");
        var tmp = Path.Combine(_root, "tmp");
        var machine = DoctorRun.Machine(Path.Combine(_root, "home")) with { SharedTempFolders = [tmp] };
        Assert.That(DoctorRun.Line(DoctorRun.Run(machine, "--game", game, "--no-cache"), "Steam container"),
            Is.EqualTo($"ok   Steam container          {game}: inside what Steam's container shares ({tmp})"));
    }

    [Test]
    public void Doctor_AGameInTheHomeFolder_IsSeen()
    {
        var home = Path.Combine(_root, "home");
        var game = MakeGame("home/Games/P5R");
        Assert.That(ContainerLine(game, home), Is.EqualTo($"ok   Steam container          {game}: inside what Steam's container shares (the home folder {home})"));
    }

    [Test]
    public void Doctor_AGameInstalledBySteamInALibraryOnACard_IsSeenAsTheInstallFolder()
    {
        var game = MakeGame("run/media/deck/card/steamapps/common/P5R");
        var manifest = Path.Combine(_root, "run/media/deck/card/steamapps/appmanifest_1687950.acf");
        File.WriteAllText(manifest, "\"AppState\"\n{\n\t\"appid\"\t\t\"1687950\"\n\t\"installdir\"\t\t\"P5R\"\n}\n");
        Assert.That(ContainerLine(game, Path.Combine(_root, "home")),
            Is.EqualTo($"ok   Steam container          {game}: inside what Steam's container shares (the game's Steam install folder, per {manifest})"));
    }

    [Test]
    public void Doctor_ALibraryLikeFolderWithoutItsManifest_IsNotTakenAsSteams()
    {
        var game = MakeGame("run/media/deck/card/steamapps/common/P5R");
        Assert.That(ContainerLine(game, Path.Combine(_root, "home")), Does.StartWith("warn Steam container "));
    }

    [Test]
    public void Doctor_AGameAddedWithPressureVesselFilesystemsRw_IsSeen()
    {
        var game = MakeGame("mnt/games/P5R");
        var shared = Path.Combine(_root, "mnt/games");
        var environment = new Dictionary<string, string> { ["PRESSURE_VESSEL_FILESYSTEMS_RW"] = $"relative/ignored:{shared}" };
        Assert.That(ContainerLine(game, Path.Combine(_root, "home"), environment),
            Is.EqualTo($"ok   Steam container          {game}: inside what Steam's container shares (PRESSURE_VESSEL_FILESYSTEMS_RW holds {shared})"));
    }
}
