using ArchiveEmu.Cli.Doctor;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 51: doctor says what Steam starts for the game, from each Steam user's <c>userdata/&lt;id&gt;/config/localconfig.vdf</c>
/// (its LaunchOptions for the game's appid): archiveemu at a full path (this copy, another one with its version, or one that is
/// not there), a bare <c>archiveemu</c> that Steam's PATH does not hold, or the game without archiveemu, each with the launch
/// option to write. A fake Steam root in a temp folder (its library holds the game), an empty home folder and an empty Steam
/// PATH: nothing of this machine's Steam is read.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DoctorSteamLaunchTests
{
    private const string AppId = "1687950";

    // The widest name in a game's report, "game folder not mounted", sets the column the details start in.
    private const int Width = 23;

    private TempDirectory _dir = null!;

    private string Steam => _dir["steam"];
    private string Game => _dir["steam/steamapps/common/P5R"];
    private string This => _dir["home/.local/bin/archiveemu"];

    [SetUp]
    public void CreateSteam()
    {
        LinuxOnly.Require("Steam's launch options (run through sh, programs found by their execute bit)");
        _dir = new TempDirectory("cli-doctor-launch");
        _dir.Write("steam/steamapps/common/P5R/P5R.exe", [0x4D, 0x5A]);
        _dir.Write($"steam/steamapps/appmanifest_{AppId}.acf", System.Text.Encoding.UTF8.GetBytes(Manifest(AppId, "P5R")));
        Program(This, "0.2.0-test");
        Directory.CreateDirectory(_dir["steam-path"]);
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private static string Manifest(string appId, string installDir) =>
        $"\"AppState\"\n{{\n\t\"appid\"\t\t\"{appId}\"\n\t\"installdir\"\t\t\"{installDir}\"\n}}\n";

    /// <summary>A Steam user's local config as Steam writes it, the launch options escaped as Valve's KeyValues escapes them.</summary>
    private string User(string id, string? options, string software = "Software", string apps = "apps", string? root = null)
    {
        var launch = options is null ? "" : $"\t\t\t\t\t\t\"LaunchOptions\"\t\t\"{options.Replace("\\", "\\\\").Replace("\"", "\\\"")}\"\n";
        var text = $"\"UserLocalConfigStore\"\n{{\n\t\"{software}\"\n\t{{\n\t\t\"Valve\"\n\t\t{{\n\t\t\t\"Steam\"\n\t\t\t{{\n\t\t\t\t\"{apps}\"\n\t\t\t\t{{\n"
            + $"\t\t\t\t\t\"{AppId}\"\n\t\t\t\t\t{{\n\t\t\t\t\t\t\"LastPlayed\"\t\t\"1733000000\"\n{launch}\t\t\t\t\t}}\n\t\t\t\t}}\n\t\t\t}}\n\t\t}}\n\t}}\n}}\n";
        return _dir.Write($"{root ?? "steam"}/userdata/{id}/config/localconfig.vdf", System.Text.Encoding.UTF8.GetBytes(text));
    }

    /// <summary>A program that answers --version with <paramref name="version"/>, as archiveemu does.</summary>
    private string Program(string path, string version, UnixFileMode mode = (UnixFileMode)0b111_101_101)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, $"#!/bin/sh\necho {version}\n");
        File.SetUnixFileMode(path, mode);
        return path;
    }

    private DoctorMachine Machine() => DoctorRun.Machine(_dir["home"]) with
    {
        Running = new RunningArchiveEmu("0.2.0-test", This, null),
        SteamSearchPath = _dir["steam-path"],
    };

    private string[] Launch(string? game = null) => DoctorRun.Lines(DoctorRun.Run(Machine(), "--game", game ?? Game, "--no-cache"), "Steam launch");

    private static string Row(string mark, string detail) => $"{mark} {"Steam launch".PadRight(Width)}  {detail}";

    private static string Fix(string fix) => $"     {"fix:".PadRight(Width)}  {fix}";

    [Test]
    public void AFullPathToThisProgram_SteamStartsIt_Passes()
    {
        User("1001", $"\"{This}\" run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[] { Row("ok  ", $"userdata/1001: Steam starts {This} (0.2.0-test), this program") }));
    }

    [Test]
    public void AFullPathToAnotherCopy_NamesItsVersion_AndSaysPlainlyThatCopyRuns()
    {
        var other = Program(_dir["opt/My Games/archiveemu"], "0.1.0-other");
        User("1001", $"\"{other}\" run --profile p5r -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("warn", $"userdata/1001: Steam starts {other} (0.1.0-other), not this program ({This}, 0.2.0-test): the game is modded by that copy"),
            Fix($"to start this copy instead: Steam launch option: \"{This}\" run --profile p5r -- %command%; or remove the copy you do not use"),
        }));
    }

    [Test]
    public void AnotherCopyThatDoesNotAnswer_IsStoppedAfterAShortWait()
    {
        var hanging = _dir.Write("opt/archiveemu", "#!/bin/sh\nsleep 60\n"u8.ToArray());
        File.SetUnixFileMode(hanging, (UnixFileMode)0b111_101_101);
        User("1001", $"{hanging} run --reloaded -- %command%");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        Assert.That(Launch()[0], Is.EqualTo(Row("warn", $"userdata/1001: Steam starts {hanging} (its --version gave no answer in 3 s), "
            + $"not this program ({This}, 0.2.0-test): the game is modded by that copy")));
        Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(30)));
    }

    [Test]
    public void AFullPathThatIsNotThere_Fails_WithThisCopysPathInTheSameLine_NotStoppingAMount()
    {
        User("1001", "/opt/gone/archiveemu run --profile p5r -- %command%");
        var result = DoctorRun.Run(Machine(), "--game", Game, "--no-cache");
        Assert.That(DoctorRun.Lines(result, "Steam launch"), Is.EqualTo(new[]
        {
            Row("FAIL", "userdata/1001: Steam's launch option starts /opt/gone/archiveemu, which does not exist"),
            Fix($"Steam launch option: \"{This}\" run --profile p5r -- %command%"),
        }));
        Assert.That(result.Out.TrimEnd().Split('\n')[^1], Does.Not.Contain("Steam launch"), "a mount by hand does not go through Steam");
    }

    [Test]
    public void AFullPathThatIsNotExecutable_Fails()
    {
        var plain = Program(_dir["opt/archiveemu"], "0.1.0-other", UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead);
        User("1001", $"{plain} run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("FAIL", $"userdata/1001: Steam's launch option starts {plain}, which this user cannot run (not executable)"),
            Fix($"chmod +x {plain}, or start this copy: Steam launch option: \"{This}\" run --reloaded -- %command%"),
        }));
    }

    [Test]
    public void ABareArchiveEmu_IsNotFoundOnSteamsPath_FailsWithTheFullPathLine()
    {
        User("1001", "archiveemu run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("FAIL", "userdata/1001: Steam's launch option starts 'archiveemu', which Steam does not find (Steam reads no ~/.bashrc, its PATH has no ~/.local/bin)"),
            Fix($"Steam launch option: \"{This}\" run --reloaded -- %command%"),
        }));
    }

    [Test]
    public void ABareArchiveEmu_InAFolderOfSteamsPath_IsTheCopyThere()
    {
        var system = Program(_dir["steam-path/archiveemu"], "0.1.0-system");
        User("1001", "archiveemu run --reloaded -- %command%");
        Assert.That(Launch()[0], Is.EqualTo(Row("warn", $"userdata/1001: Steam starts {system} (found on Steam's PATH) (0.1.0-system), "
            + $"not this program ({This}, 0.2.0-test): the game is modded by that copy")));
    }

    [Test]
    public void AHomeRelativePath_AfterAWrapperAndAnAssignment_IsThisProgram()
    {
        User("1001", "PROTON_LOG=1 gamemoderun ~/.local/bin/archiveemu run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[] { Row("ok  ", $"userdata/1001: Steam starts {This} (0.2.0-test), this program") }));
    }

    [Test]
    public void NoLaunchOptions_SteamStartsTheGameWithoutArchiveEmu_AndTheLineToPaste()
    {
        User("1001", null);
        User("1002", "  ");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("info", $"Steam starts the game without archiveemu (no launch options for appid {AppId})"),
            Fix($"Steam launch option: \"{This}\" run --reloaded -- %command%"),
        }));
    }

    [Test]
    public void LaunchOptionsWithoutArchiveEmu_AnAssignmentNamingAnArchiveEmuFolderIsNotTheProgram()
    {
        User("1001", "PROTON_LOG_DIR=/home/deck/archiveemu-logs PROTON_LOG=1 %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("info", "userdata/1001: Steam starts the game without archiveemu (launch options: PROTON_LOG_DIR=/home/deck/archiveemu-logs PROTON_LOG=1 %command%)"),
            Fix($"Steam launch option: PROTON_LOG_DIR=/home/deck/archiveemu-logs PROTON_LOG=1 \"{This}\" run --reloaded -- %command%"),
        }));
    }

    [Test]
    public void LaunchOptionsWithoutCommand_GoToTheGameAsArguments_SoArchiveEmuNeverRuns()
    {
        User("1001", $"\"{This}\" run --reloaded");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("info", $"userdata/1001: Steam starts the game without archiveemu: the launch options (\"{This}\" run --reloaded) have no %command%, "
                + "so Steam adds them to the game's own arguments"),
            Fix($"Steam launch option: \"{This}\" run --reloaded -- %command%"),
        }));
    }

    [Test]
    public void AnUnclosedQuote_Fails_NamingIt()
    {
        User("1001", $"\"{This} run --reloaded -- %command%");
        Assert.That(Launch()[0], Is.EqualTo(Row("FAIL", $"userdata/1001: Steam's shell cannot run the launch options for appid {AppId} "
            + $"(\"{This} run --reloaded -- %command%): a \" quote is not closed")));
    }

    [Test]
    public void ALocalConfigThatDoesNotParse_IsOneLineNamingTheFile_TheOtherUsersStillRead()
    {
        var broken = _dir.Write("steam/userdata/1001/config/localconfig.vdf", "\"UserLocalConfigStore\"\n{\n\t\"Software\"\n"u8.ToArray());
        User("1002", $"\"{This}\" run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("warn", $"{broken}: not Steam's KeyValues text (line 4: the key \"Software\" has no value)"),
            Fix("what Steam starts for this user is not known; Steam writes the file again when it exits (restart Steam)"),
            Row("ok  ", $"userdata/1002: Steam starts {This} (0.2.0-test), this program"),
        }));
    }

    [Test]
    public void ALocalConfigThatIsAFifo_IsOneLineNamingIt_NotARead_ThatWaitsForAWriter()
    {
        LinuxOnly.Require("a FIFO (mkfifo)");
        var fifo = _dir["steam/userdata/1001/config/localconfig.vdf"];
        Directory.CreateDirectory(Path.GetDirectoryName(fifo)!);
        Assert.That(ExternalTool.Run("mkfifo", fifo).ExitCode, Is.Zero);
        User("1002", $"\"{This}\" run --reloaded -- %command%");
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("warn", $"{fifo}: a FIFO, not a regular file; not read"),
            Fix("what Steam starts for this user is not known; Steam writes the file again when it exits (restart Steam)"),
            Row("ok  ", $"userdata/1002: Steam starts {This} (0.2.0-test), this program"),
        }));
    }

    [Test]
    public void TwoSteamUsers_EachWithLaunchOptionsIsNamed_KeysInEitherLetterCase()
    {
        User("1001", "archiveemu run --reloaded -- %command%");
        User("1002", $"\"{This}\" run --reloaded -- %command%", software: "software", apps: "Apps");
        User("1003", null);
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("FAIL", "userdata/1001: Steam's launch option starts 'archiveemu', which Steam does not find (Steam reads no ~/.bashrc, its PATH has no ~/.local/bin)"),
            Fix($"Steam launch option: \"{This}\" run --reloaded -- %command%"),
            Row("ok  ", $"userdata/1002: Steam starts {This} (0.2.0-test), this program"),
        }));
    }

    [Test]
    public void AGameInALibraryOutsideTheSteamRoot_IsReadFromTheSteamRootUnderHome()
    {
        var card = _dir["card/steamapps/common/P5R"];
        _dir.Write("card/steamapps/common/P5R/P5R.exe", [0x4D, 0x5A]);
        _dir.Write($"card/steamapps/appmanifest_{AppId}.acf", System.Text.Encoding.UTF8.GetBytes(Manifest(AppId, "P5R")));
        User("1001", $"\"{This}\" run --reloaded -- %command%", root: "home/.local/share/Steam");
        Assert.That(Launch(card), Is.EqualTo(new[] { Row("ok  ", $"userdata/1001: Steam starts {This} (0.2.0-test), this program") }));
    }

    [Test]
    public void AGameNoSteamManifestNames_ReadsNoLaunchOptions()
    {
        var loose = _dir["Games/P5R"];
        _dir.Write("Games/P5R/P5R.exe", [0x4D, 0x5A]);
        Assert.That(Launch(loose), Is.EqualTo(new[]
        {
            Row("info", $"{loose}: no Steam manifest (steamapps/appmanifest_*.acf) names it with an appid, so no launch options are read"),
        }));
    }

    [Test]
    public void NoSteamUserConfig_SaysWhereItLooked()
    {
        Assert.That(Launch(), Is.EqualTo(new[]
        {
            Row("info", $"no Steam user's userdata/*/config/localconfig.vdf in {Steam}, {_dir["home"]}/.steam/steam, {_dir["home"]}/.local/share/Steam, "
                + $"{_dir["home"]}/.var/app/com.valvesoftware.Steam/.local/share/Steam: what Steam starts for appid {AppId} is not known"),
        }));
    }
}
