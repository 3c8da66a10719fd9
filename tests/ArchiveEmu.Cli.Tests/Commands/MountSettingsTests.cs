using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>Issue 18: a malformed setting of the mount is a usage error (exit 2, one line naming the allowed values), before anything is mounted.</summary>
public sealed class MountSettingsTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-mount-settings");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Mount_LogLevelFoo_IsAUsageErrorNamingTheLevels()
    {
        var result = CliRun.Run("mount", "--game", Game, "--mod", Hd, "--log-level", "foo", _dir["mnt"]);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0],
            Is.EqualTo("archiveemu mount: --log-level takes Verbose, Debug, Information, Warning, Error or Fatal, not 'foo'"));
        Assert.That(result.Error, Does.Not.Contain(" at "));
        Assert.That(Directory.Exists(_dir["mnt"]), Is.False, "nothing prepared at the mount point");
    }

    [Test]
    public void Mount_LogLevelInAnyCase_IsTakenAsSerilogTakesIt()
    {
        // A game folder that does not exist: the host refuses it (bad input, 1) once the level was accepted.
        var result = CliRun.Run("mount", "--game", _dir["no-game"], "--mod", Hd, "--log-level", "debug", _dir["mnt"]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
    }

    [TestCase("ARCHIVEEMU_Serilog__MinimumLevel__Default", "foo",
        "archiveemu-host: Serilog:MinimumLevel:Default takes Verbose, Debug, Information, Warning, Error or Fatal, not 'foo'")]
    [TestCase("ARCHIVEEMU_ArchiveEmu__Threads", "many", "archiveemu-host: ArchiveEmu:Threads takes a whole number, not 'many'")]
    [TestCase("ARCHIVEEMU_ArchiveEmu__Passthrough", "maybe", "archiveemu-host: ArchiveEmu:Passthrough takes true or false, not 'maybe'")]
    [TestCase("ARCHIVEEMU_ArchiveEmu__IgnoreCase", "yes", "archiveemu-host: ArchiveEmu:IgnoreCase takes true or false, not 'yes'")]
    [TestCase("ARCHIVEEMU_ArchiveEmu__Fuse", "fast", "archiveemu-host: ArchiveEmu:Fuse takes auto, kernel or libfuse, not 'fast'")]
    [TestCase("ARCHIVEEMU_ArchiveEmu__Language", "klingon",
        "archiveemu-host: ArchiveEmu:Language takes en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant or zh-Hans, not 'klingon'")]
    public void Mount_AMalformedHostSettingFromTheEnvironment_IsAUsageErrorBeforeMounting(string variable, string value, string line)
    {
        var error = new StringWriter();
        var saved = Console.Error;
        Environment.SetEnvironmentVariable(variable, value);
        Console.SetError(error);
        CliResult result;
        try
        {
            result = CliRun.Run("mount", "--game", Game, "--mod", Hd, _dir["mnt"]);
        }
        finally
        {
            Console.SetError(saved);
            Environment.SetEnvironmentVariable(variable, null);
        }
        Assert.That(result.ExitCode, Is.EqualTo(2), result + "\nconsole:\n" + error);
        // In-process the host writes the line to the console; an installed binary (ARCHIVEEMU_EXE) to its stderr.
        var said = TestSupport.ArchiveEmuProgram.Installed is null ? error.ToString() : result.Error;
        Assert.That(said.TrimEnd().ReplaceLineEndings("\n").Split('\n'), Is.EqualTo(new[] { line }), said);
        Assert.That(Directory.Exists(_dir["mnt"]), Is.False, "nothing prepared at the mount point");
    }

    /// <summary>
    /// Issue 49: mount hands the host a typed request, laid over the host's own settings: a setting from the environment still
    /// applies where the command line says nothing (merge always, with --no-cache: refused), and the command line's wins where it does.
    /// </summary>
    [Test]
    public void Mount_TheEnvironmentsSettings_LieUnderTheCommandLine()
    {
        var log = new StringWriter(); // the host logs to the console (stdout)
        var saved = Console.Out;
        Environment.SetEnvironmentVariable("ARCHIVEEMU_ArchiveEmu__Merge", "always");
        Console.SetOut(log);
        CliResult underneath, over;
        try
        {
            underneath = CliRun.Run("mount", "--game", Game, "--mod", Hd, "--no-cache", _dir["mnt"]);
            over = CliRun.Run("mount", "--game", Game, "--mod", Hd, "--no-cache", "--merge", "never", _dir["mnt"]);
        }
        finally
        {
            Console.SetOut(saved);
            Environment.SetEnvironmentVariable("ARCHIVEEMU_ArchiveEmu__Merge", null);
        }
        var said = TestSupport.ArchiveEmuProgram.Installed is null ? log.ToString() : underneath.Out + over.Out;
        Assert.That(underneath.ExitCode, Is.EqualTo(1), underneath + "\nconsole:\n" + said);
        Assert.That(said, Does.Contain("merge policy 'always' needs the cache; drop NoCache"));
        Assert.That(over.ExitCode, Is.Not.Zero, "no mount point: nothing is mounted");
        Assert.That(System.Text.RegularExpressions.Regex.Matches(said, "needs the cache"), Has.Count.EqualTo(1), said);
        Assert.That(Directory.Exists(_dir["mnt"]), Is.False, "nothing prepared at the mount point");
    }
}
