using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 32, <c>archiveemu doctor --game</c>: the game folder readable (as root here, as nobody where a file is not), the cache
/// folder writable with its size, and each mod as the mount reads it, code mods (<c>ModDll</c>) named with what they need.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DoctorGameTests
{
    private static readonly string Game = Path.GetFullPath(CliRun.Fixture("game"));
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("FUSE");
        _dir = new TempDirectory("cli-doctor-game");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private CliResult Doctor(params string[] args) => DoctorRun.Run(DoctorRun.Machine(_dir["home"]), args);

    private static JsonElement Check(string json, string name) =>
        JsonDocument.Parse(json).RootElement.GetProperty("checks").EnumerateArray().Single(c => c.GetProperty("name").GetString() == name);

    [Test]
    public void Doctor_TheFixtureGame_EveryFolderAndFileReadable_NothingMounted()
    {
        var result = Doctor("--game", Game, "--no-cache");
        Assert.That(DoctorRun.Line(result, "game folder not mounted"), Is.EqualTo($"ok   game folder not mounted  {Game}: nothing is mounted on it"));
        Assert.That(DoctorRun.Line(result, "game folder readable"),
            Is.EqualTo($"ok   game folder readable     {Game}: 3 folder(s) and 8 file(s), all readable by this user"));
        Assert.That(DoctorRun.Line(result, "mods"), Is.EqualTo("info mods                     none given: the game would be served as it is"));
    }

    [Test]
    public void Doctor_AsANormalUser_AFileAndAFolderOnlyRootReads_FailNamingBoth_Exit1()
    {
        File.SetUnixFileMode(_dir.Path, (UnixFileMode)Convert.ToInt32("755", 8)); // nobody may reach the game inside
        var game = _dir["game"];
        _dir.Write("game/data/readme.txt", "hello"u8.ToArray());
        var secret = _dir.Write("game/data/secret.bin", [1, 2, 3]);
        _dir.Write("game/private/inside.bin", [4]);
        var home = Directory.CreateDirectory(_dir["home"]).FullName;
        var chown = ExternalTool.Run("chown", DoctorRun.Nobody, home);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());
        File.SetUnixFileMode(secret, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        File.SetUnixFileMode(_dir["game/private"], UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        var result = DoctorRun.AsNobody(home, "--game", game, "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        var check = Check(result.StdOut, "game folder readable");
        Assert.That(check.GetProperty("ok").GetBoolean(), Is.False);
        Assert.That(check.GetProperty("blocking").GetBoolean(), Is.True);
        Assert.That(check.GetProperty("detail").GetString(), Is.EqualTo($"{game}: 2 not readable by this user: {secret}, {game}/private/"));
        Assert.That(check.GetProperty("fix").GetString(), Is.EqualTo($"let this user read the game (chmod -R u+rX,o+rX {game}, or chown -R to this user)"));
        if ((File.GetUnixFileMode("/dev/fuse") & UnixFileMode.OtherWrite) == 0)
            Assert.That(Check(result.StdOut, "/dev/fuse").GetProperty("detail").GetString(),
                Is.EqualTo("/dev/fuse cannot be opened read-write by this user (Permission denied)"), "this machine's device is root's alone");

        var asRoot = Doctor("--game", game, "--no-cache");
        Assert.That(DoctorRun.Line(asRoot, "game folder readable"), Does.EndWith(": 3 folder(s) and 3 file(s), all readable by this user"), "root reads them all");
    }

    [Test]
    public void Doctor_AReadOnlyCacheFolder_FailsWithTheWaysOut_Exit1()
    {
        Directory.CreateDirectory(_dir["ro/cache"]);
        using var readOnly = ReadOnlyBindMount.Over(_dir["ro"]);
        var result = Doctor("--game", Game, "--cache", _dir["ro/cache"]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(DoctorRun.Line(result, "cache folder"), Is.EqualTo($"FAIL cache folder             {_dir["ro/cache"]}: the cache folder is on a read-only file system"));
        Assert.That(DoctorRun.FixOf(result, "cache folder"), Is.EqualTo(
            "     fix:                     give a writable folder with --cache DIR, or mount with --no-cache (slower starts)"));
        Assert.That(result.Out, Does.EndWith("a mount would fail here: cache folder\n"));
    }

    [Test]
    public void Doctor_AWritableCacheFolder_SaysWhatItHoldsAndTheFreeSpaceBesideIt()
    {
        _dir.Write("cache/index.bin", new byte[3000]);
        _dir.Write("cache/plans/a.plan", new byte[1096]);
        var result = Doctor("--game", Game, "--cache", _dir["cache"]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var line = DoctorRun.Line(result, "cache folder");
        Assert.That(line, Does.StartWith($"ok   cache folder             {_dir["cache"]}: writable, holds 4 KiB, "));
        Assert.That(line, Does.Match(@", \d+(\.\d+)? (B|KiB|MiB|GiB) free on its disk$"));
    }

    [Test]
    public void Doctor_AModWithModDll_IsServedForItsFiles_AndNamedAsACodeModThatNeedsReloaded()
    {
        var mod = _dir["mods/codemod"];
        _dir.Write("mods/codemod/ModConfig.json", """{ "ModId": "test.codemod", "ModName": "Code mod", "ModDll": "codemod.dll" }"""u8.ToArray());
        _dir.Write("mods/codemod/codemod.dll", [0x4D, 0x5A]);
        _dir.Write("mods/codemod/Redirector/data/readme.txt", "modded"u8.ToArray());
        var result = Doctor("--game", Game, "--mod", mod, "--no-cache");
        Assert.That(DoctorRun.Line(result, "mod codemod"), Is.EqualTo($"ok   mod codemod              {mod}: Reloaded-II layout, reads Redirector"));
        Assert.That(DoctorRun.Line(result, "code mods"), Is.EqualTo(
            "warn code mods                1 mod(s) carry code that only Reloaded-II runs inside the game: codemod (codemod.dll)"));
        Assert.That(DoctorRun.Line(result, "Reloaded-II"), Does.StartWith("warn Reloaded-II              ")
            .And.Contain($"no Reloaded-II setup found for this game; looked in {_dir["home"]}/.wine/drive_c/users/").And.EndWith("; code mods need it"));
        Assert.That(result.ExitCode, Is.Zero, "a code mod is a warning: its files are still served");

        var config = _dir.Write("home/.wine/drive_c/users/deck/AppData/Roaming/Reloaded-Mod-Loader-II/ReloadedII.json", "{}"u8.ToArray());
        Assert.That(DoctorRun.Line(Doctor("--game", Game, "--mod", mod, "--no-cache"), "Reloaded-II"), Is.EqualTo($"info Reloaded-II              found: {Path.GetDirectoryName(config)} (the Wine prefix ~/.wine)"));
    }

    /// <summary>Issue 50: doctor names the files served merged, their mods and how many fields two of them changed (Metaphor's sample).</summary>
    [Test]
    public void Doctor_TwoModsEditingOneTable_NamesTheMergedFileAndItsMods()
    {
        var game = Path.GetFullPath(CliRun.Fixture("metaphor/game"));
        var result = Doctor("--game", game, "--mod", CliRun.Fixture("metaphor/mods/skill-power"), "--mod", CliRun.Fixture("metaphor/mods/skill-cost"), "--no-cache");
        Assert.That(DoctorRun.Line(result, "merged files"), Is.EqualTo("info merged files             1 served merged from the mods' copies: "
            + "base.cpk/COMMON/battle/table/Skill.tbl (skill-power, skill-cost; 1 changed by two or more, the later mod's kept)"));
        Assert.That(Doctor("--game", Game, "--mod", CliRun.Fixture("mods/hd-textures"), "--no-cache").Out, Does.Not.Contain("merged files"), "nothing merged: no line");
    }

    [Test]
    public void Doctor_AModWithoutModDll_NoCodeMods()
    {
        var mod = _dir["mods/filemod"];
        _dir.Write("mods/filemod/ModConfig.json", """{ "ModId": "test.filemod", "ModName": "File mod", "ModDll": "" }"""u8.ToArray());
        _dir.Write("mods/filemod/Redirector/data/readme.txt", "modded"u8.ToArray());
        var result = Doctor("--game", Game, "--mod", mod, "--no-cache");
        Assert.That(DoctorRun.Line(result, "code mods"), Is.EqualTo("ok   code mods                none: every mod is files only, which ArchiveEmu serves without Reloaded-II"));
        Assert.That(DoctorRun.Line(result, "Reloaded-II"), Does.EndWith("; only code mods need it"));
    }

    [Test]
    public void Doctor_AModOfWhichNothingApplies_IsAWarningNamingIt()
    {
        var mod = _dir["mods/scripts"];
        _dir.Write("mods/scripts/ModConfig.json", """{ "ModId": "test.scripts" }"""u8.ToArray());
        _dir.Write("mods/scripts/FEmulator/BF/field.flow", "x"u8.ToArray());
        var result = Doctor("--game", Game, "--mod", mod, "--no-cache");
        Assert.That(DoctorRun.Line(result, "mod scripts"), Does.StartWith($"warn mod scripts              {mod}: nothing of it reaches the game (scripts: 1 file(s) in FEmulator/BF/ not applied: "));
        Assert.That(result.ExitCode, Is.Zero, "a warning, not a failure");
    }

    [Test]
    public void Doctor_AMissingModFolder_FailsTheModsCheck_Exit1()
    {
        var result = Doctor("--game", Game, "--mod", _dir["no-such-mod"], "--no-cache");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(DoctorRun.Line(result, "mods"), Does.StartWith("FAIL mods "));
        Assert.That(DoctorRun.Line(result, "mods"), Does.Contain(_dir["no-such-mod"]));
    }
}
