using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Profiles;

/// <summary>
/// Issue 32, profiles: <c>profile save NAME …</c> writes one readable JSON file in the issue's shape (absolute paths) under
/// XDG_CONFIG_HOME; <c>ls</c>, <c>show</c> and <c>rm</c>; a bad name is a usage error; a damaged file is one line naming it.
/// </summary>
[NonParallelizable]
public sealed class ProfileCommandTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private static readonly string Ui = CliRun.Fixture("mods/ui-fix");
    private UserFoldersScope _user = null!;

    [SetUp]
    public void Isolate() => _user = new UserFoldersScope();

    [TearDown]
    public void Restore() => _user.Dispose();

    /// <summary>A path as a JSON string (on Windows its backslashes are escaped).</summary>
    private static string Json(string path) => System.Text.Json.JsonSerializer.Serialize(path);

    private static string Expected(string game, string[] mods, string language = "null", string ignoreCase = "true", string cache = "null") =>
        "{\n" +
        $"  \"game\": {Json(game)},\n" +
        "  \"mods\": [\n" + string.Join(",\n", mods.Select(m => $"    {Json(m)}")) + "\n  ],\n" +
        "  \"reloaded\": false,\n" +
        "  \"reloadedDir\": null,\n" +
        "  \"options\": {\n" +
        "    \"merge\": \"auto\",\n" +
        "    \"compress\": \"auto\",\n" +
        $"    \"ignoreCase\": {ignoreCase},\n" +
        $"    \"language\": {language},\n" +
        $"    \"cache\": {cache}\n" +
        "  }\n" +
        "}\n";

    [Test]
    public void Save_RelativeFolders_WritesTheIssuesShapeWithAbsolutePaths_AndSaysWhatItSaved()
    {
        LinuxOnly.Require("the expected profile JSON spells paths with /, which Windows spells with \\ (profiles are for Steam on Linux)");
        var saved = Environment.CurrentDirectory;
        Environment.CurrentDirectory = CliRun.Fixture("");
        CliResult result;
        try
        {
            result = CliRun.Run("profile", "save", "p5r", "--game", "game", "--mod", "mods/hd-textures", "--mod", "mods/ui-fix", "--language", "FR",
                "--cache", "../tmp-cache");
        }
        finally
        {
            Environment.CurrentDirectory = saved;
        }
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var file = Path.Combine(_user.Profiles, "p5r.json");
        var json = Expected(Game, [Hd, Ui], language: "\"fr\"", cache: Json(Path.GetFullPath(CliRun.Fixture("../tmp-cache"))));
        Assert.That(File.ReadAllText(file), Is.EqualTo(json));
        Assert.That(result.Out, Is.EqualTo($"saved profile p5r in {file}:\n{json}"));
        Assert.That(result.Error, Is.Empty);
    }

    [Test]
    public void Save_CaseSensitive_StoresIgnoreCaseFalse_AndSavingAgainReplaces()
    {
        LinuxOnly.Require("the expected profile JSON spells paths with /, which Windows spells with \\ (profiles are for Steam on Linux)");
        Assert.That(CliRun.Run("profile", "save", "p", "--game", Game, "--mod", Hd).ExitCode, Is.Zero);
        var result = CliRun.Run("profile", "save", "p", "--game", Game, "--mod", Ui, "--case-sensitive");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out, Does.StartWith("replaced profile p in "));
        Assert.That(File.ReadAllText(Path.Combine(_user.Profiles, "p.json")), Is.EqualTo(Expected(Game, [Ui], ignoreCase: "false")));
    }

    [TestCase("p5r/../x")]
    [TestCase("..")]
    [TestCase("p 5")]
    [TestCase("perso\u00f1a")]
    public void Save_ANameThatIsNotLettersDigitsDotUnderscoreDash_IsAUsageError(string name)
    {
        var result = CliRun.Run("profile", "save", name, "--game", Game, "--mod", Hd);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Is.EqualTo(
            $"archiveemu profile save: a profile name is made of letters a-z or A-Z, digits, '.', '_' and '-' (not only dots), not '{name}'"));
        Assert.That(Directory.Exists(_user.Profiles), Is.False, "nothing saved");
    }

    [Test]
    public void Save_AModFolderThatDoesNotExist_OneLineNamingIt_Exit1_NothingSaved()
    {
        var missing = _user["no-such-mod"];
        var result = CliRun.Run("profile", "save", "p", "--game", Game, "--mod", missing);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo($"archiveemu profile save: {missing}: mod folder not found; nothing saved\n"));
        Assert.That(File.Exists(Path.Combine(_user.Profiles, "p.json")), Is.False);
    }

    [Test]
    public void Save_NoModsAndNoReloaded_IsAUsageError()
    {
        var result = CliRun.Run("profile", "save", "p", "--game", Game);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Is.EqualTo("archiveemu profile save: missing --mod DIR (or --reloaded, or --reloaded-dir PATH)"));
    }

    [Test]
    public void Ls_NamesAndGames_Show_PrintsTheFile_Rm_RemovesIt()
    {
        LinuxOnly.Require("the expected profile JSON spells paths with /, which Windows spells with \\ (profiles are for Steam on Linux)");
        var other = _user["other-game"];
        Directory.CreateDirectory(other);
        Assert.That(CliRun.Run("profile", "save", "p5r", "--game", Game, "--mod", Hd).ExitCode, Is.Zero);
        Assert.That(CliRun.Run("profile", "save", "b", "--game", other, "--mod", Ui).ExitCode, Is.Zero);

        var ls = CliRun.Run("profile", "ls");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out, Is.EqualTo($"b    {other}\np5r  {Game}\n"));

        var show = CliRun.Run("profile", "show", "p5r");
        Assert.That(show.ExitCode, Is.Zero, show.ToString());
        Assert.That(show.Out, Is.EqualTo(Expected(Game, [Hd])));

        var rm = CliRun.Run("profile", "rm", "b");
        Assert.That(rm.ExitCode, Is.Zero, rm.ToString());
        Assert.That(rm.Out, Is.EqualTo($"removed profile b ({Path.Combine(_user.Profiles, "b.json")})\n"));
        Assert.That(CliRun.Run("profile", "ls").Out, Is.EqualTo($"p5r  {Game}\n"));

        var again = CliRun.Run("profile", "rm", "b");
        Assert.That(again.ExitCode, Is.EqualTo(1));
        Assert.That(again.Error, Is.EqualTo($"archiveemu profile rm: {Path.Combine(_user.Profiles, "b.json")}: no profile named b\n"));
    }

    [TestCase("\"cache\": null", "\"cache\": null, \"cheats\": true", "not a profile ArchiveEmu can read: unknown field 'cheats' (at $.options.cheats, line 13)")]
    [TestCase("\"reloaded\": false,\n", "", "not a profile ArchiveEmu can read: missing field(s) 'reloaded' (line 14)")]
    [TestCase("\"merge\": \"auto\"", "\"merge\": \"sometimes\"", "options.merge takes auto, always or never, not 'sometimes'")]
    public void ADamagedProfile_IsOneLineNamingTheFileAndWhatIsWrong_OnEveryCommand(string from, string to, string problem)
    {
        Assert.That(CliRun.Run("profile", "save", "p", "--game", Game, "--mod", Hd).ExitCode, Is.Zero);
        var file = Path.Combine(_user.Profiles, "p.json");
        File.WriteAllText(file, File.ReadAllText(file).Replace(from, to));
        foreach (var args in new[] { new[] { "profile", "show", "p" }, ["ls", "--profile", "p", "data/textures.afs"], ["build", "--profile", "p", "--no-cache"] })
        {
            var result = CliRun.Run(args);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error, Is.EqualTo($"archiveemu {string.Join(' ', args.Take(args[0] == "profile" ? 2 : 1))}: {file}: {problem}\n"));
        }
        var ls = CliRun.Run("profile", "ls");
        Assert.That(ls.ExitCode, Is.EqualTo(1));
        Assert.That(ls.Out, Is.EqualTo("p  (damaged)\n"));
    }

    // Issue 48: "mods": [null] was shown by profile show, then failed every command with "Value cannot be null. (Parameter 'path')".
    [TestCase("[null]", "mods[0] is null; a profile lists its mod folders as absolute paths")]
    [TestCase("null", "not a profile ArchiveEmu can read: a value of the wrong kind (a text, true/false, a list or null where another is expected) (at $.mods, line 3)")]
    public void AProfileWithANullMod_IsOneLineNamingTheFieldOnEveryCommand(string mods, string problem)
    {
        Assert.That(CliRun.Run("profile", "save", "p", "--game", Game, "--mod", Hd).ExitCode, Is.Zero);
        var file = Path.Combine(_user.Profiles, "p.json");
        File.WriteAllText(file, System.Text.RegularExpressions.Regex.Replace(File.ReadAllText(file), @"""mods"": \[[^\]]*\]", $"\"mods\": {mods}"));
        foreach (var args in new[] { new[] { "profile", "show", "p" }, ["ls", "--profile", "p", "data/textures.afs"], ["build", "--profile", "p", "--no-cache"] })
        {
            var result = CliRun.Run(args);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error, Is.EqualTo($"archiveemu {string.Join(' ', args.Take(args[0] == "profile" ? 2 : 1))}: {file}: {problem}\n"));
        }
    }

    [Test]
    public void Save_ANameOfMoreThan200Characters_IsAUsageErrorNamingTheLimit()
    {
        LinuxOnly.Require("a 200-character file name in the profiles folder (Windows' 260-character paths under Wine)");
        var name = new string('p', 245);
        var result = CliRun.Run("profile", "save", name, "--game", Game, "--mod", Hd);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Is.EqualTo("archiveemu profile save: a profile name is at most 200 characters, not 245"));
        Assert.That(Directory.Exists(_user.Profiles), Is.False, "nothing saved");
        Assert.That(CliRun.Run("profile", "save", new string('p', 200), "--game", Game, "--mod", Hd).ExitCode, Is.Zero, "200 fits");
    }

    [Test]
    public void AProfileThatDoesNotExist_OneLineSayingHowToMakeIt()
    {
        var result = CliRun.Run("ls", "--profile", "nope", "data/textures.afs");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo(
            $"archiveemu ls: {Path.Combine(_user.Profiles, "nope.json")}: no profile named nope (archiveemu profile ls lists them; profile save nope … makes it)\n"));
    }
}
