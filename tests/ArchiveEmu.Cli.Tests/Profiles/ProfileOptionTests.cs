using ArchiveEmu.Cli.Commands;
using ArchiveEmu.Cli.Tests.Commands;
using ArchiveEmu.Host;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Profiles;

/// <summary>
/// Issue 32, <c>--profile NAME</c>: it reproduces the flags it was saved from; as if its options were written before the
/// command line's, a <c>--game</c> given replaces the profile's and a <c>--mod</c> given is added after (over) its mods; the
/// mount's options (merge, compress, case, language, cache) reach the host unless the command line says otherwise.
/// </summary>
[NonParallelizable]
public sealed class ProfileOptionTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private static readonly string Ui = CliRun.Fixture("mods/ui-fix");
    private UserFoldersScope _user = null!;

    [SetUp]
    public void Isolate() => _user = new UserFoldersScope();

    [TearDown]
    public void Restore() => _user.Dispose();

    private void Save(params string[] options)
    {
        var result = CliRun.Run(["profile", "save", "p", .. options]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
    }

    private static string Listing(params string[] args)
    {
        var result = CliRun.Run(["ls", .. args, "--no-cache", "data/textures.afs"]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return result.Out;
    }

    [Test]
    public void AProfile_ListsAsTheFlagsItWasSavedFrom()
    {
        Save("--game", Game, "--mod", Hd, "--mod", Ui);
        Assert.That(Listing("--profile", "p"), Is.EqualTo(Listing("--game", Game, "--mod", Hd, "--mod", Ui)));
    }

    [Test]
    public void AModOnTheCommandLine_IsAddedAfterTheProfilesMods()
    {
        Save("--game", Game, "--mod", Hd);
        var added = Listing("--profile", "p", "--mod", Ui);
        Assert.That(added, Is.EqualTo(Listing("--game", Game, "--mod", Hd, "--mod", Ui)));
        Assert.That(added, Is.Not.EqualTo(Listing("--game", Game, "--mod", Ui)), "hd-textures' entries stay");
    }

    [Test]
    public void AGameOnTheCommandLine_ReplacesTheProfilesGame()
    {
        using var copy = new TempDirectory("profile-game");
        var other = copy["game"];
        foreach (var file in Directory.GetFiles(Game, "*", SearchOption.AllDirectories))
            copy.Write("game/" + Path.GetRelativePath(Game, file), File.ReadAllBytes(file));
        var gone = Directory.CreateDirectory(_user["gone"]).FullName;
        Save("--game", gone, "--mod", Hd);
        Directory.Delete(gone); // the profile's game no longer exists: only the command line's is read
        Assert.That(Listing("--profile", "p", "--game", other), Is.EqualTo(Listing("--game", other, "--mod", Hd)));
    }

    /// <summary>What <c>run</c> (or <c>mount</c>) over the game folder asks the host, without mounting.</summary>
    private static string[] HostArgs(bool run, params string[] args) => HostSettings.Of(run, mountPoint: null, args);

    [Test]
    public void TheProfilesOptions_ReachTheHost_UnderTheCommandLines()
    {
        LinuxOnly.Require("the expected host arguments spell paths with /, which Windows spells with \\ (the mount is Linux-only)");
        var cache = _user["cache"];
        Save("--game", Game, "--mod", Hd, "--merge", "never", "--compress", "lz4", "--language", "de", "--cache", cache);
        Assert.That(HostArgs(false, "--profile", "p"), Is.EqualTo(new[]
        {
            $"Game={Game}", "InPlace=true", $"Mods:0={Hd}", $"Cache={cache}", "Merge=never", "Compression=lz4", "Language=de (--language)", "IgnoreCase=true",
        }));
        Assert.That(HostArgs(false, "--profile", "p", "--no-cache", "--merge", "always", "--compress", "none", "--language", "fr", "--case-sensitive", "--mod", Ui),
            Is.EqualTo(new[]
            {
                $"Game={Game}", "InPlace=true", $"Mods:0={Hd}", $"Mods:1={Ui}", "NoCache=true", "Merge=always", "Compression=none", "Language=fr (--language)",
            }));
    }

    /// <summary>
    /// Issue 49: the host's own settings (appsettings.json, ARCHIVEEMU_ variables) are the layer under the command line and the
    /// profile, option by option, and run's letter-case default the layer under them; --case-sensitive now beats a host's
    /// IgnoreCase=true, which it could not when the request was written into the settings (only "true" was written).
    /// </summary>
    [Test]
    public void TheHostsSettings_LieUnderTheCommandLineAndTheProfile_OptionByOption()
    {
        LinuxOnly.Require("the expected host arguments spell paths with /, which Windows spells with \\ (the mount is Linux-only)");
        var settingsCache = _user["settings-cache"];
        MountOptions Settings() => new() { Merge = "never", Compression = "lz4", IgnoreCase = true, Language = "ja", Cache = settingsCache };
        string[] Over(MountOptions settings, bool run, params string[] args) => HostSettings.Of(HostSettings.Request(settings, run, null, TextWriter.Null, args));

        Assert.That(Over(Settings(), false, "--game", Game, "--mod", Hd), Is.EqualTo(new[]
        {
            $"Game={Game}", "InPlace=true", $"Mods:0={Hd}", $"Cache={settingsCache}", "Merge=never", "Compression=lz4", "Language=ja (ArchiveEmu:Language)", "IgnoreCase=true",
        }));
        Save("--game", Game, "--mod", Hd, "--compress", "none", "--language", "de");
        Assert.That(Over(Settings(), false, "--profile", "p", "--merge", "always", "--case-sensitive"), Is.EqualTo(new[]
        {
            $"Game={Game}", "InPlace=true", $"Mods:0={Hd}", $"Cache={settingsCache}", "Merge=always", "Compression=none", "Language=de (--language)",
        }));
        Assert.That(Over(Settings(), false, "--game", Game, "--mod", Hd, "--no-cache"), Does.Contain("NoCache=true").And.Not.Contain($"Cache={settingsCache}"));
        Assert.That(Over(new MountOptions { IgnoreCase = false }, true, "--game", Game, "--mod", Hd), Does.Not.Contain("IgnoreCase=true"),
            "a host setting saying false is under run's command line, which says nothing; run's default is only where no layer says");
        Assert.That(Over(new MountOptions { NoCache = true }, false, "--game", Game, "--mod", Hd, "--cache", settingsCache), Does.Contain("NoCache=true"),
            "the host's NoCache keeps the cache off, as it did when written into the settings");
    }

    [Test]
    public void Run_IgnoresLetterCaseByDefault_CaseSensitiveTurnsItOff_MountKeepsItOff()
    {
        Assert.That(HostArgs(true, "--game", Game, "--mod", Hd), Does.Contain("IgnoreCase=true"));
        Assert.That(HostArgs(true, "--game", Game, "--mod", Hd, "--case-sensitive"), Does.Not.Contain("IgnoreCase=true"));
        Assert.That(HostArgs(false, "--game", Game, "--mod", Hd), Does.Not.Contain("IgnoreCase=true"));
        Assert.That(HostArgs(false, "--game", Game, "--mod", Hd, "--ignore-case"), Does.Contain("IgnoreCase=true"));
    }

    [Test]
    public void Run_WithoutGame_ServesTheWorkingFolder_MountStillAsksForIt()
    {
        var saved = Environment.CurrentDirectory;
        Environment.CurrentDirectory = Game;
        try
        {
            Assert.That(HostArgs(true, "--mod", Hd)[0], Is.EqualTo($"Game={Game}"));
        }
        finally
        {
            Environment.CurrentDirectory = saved;
        }
        var mount = CliRun.Run("mount", "--mod", Hd, "--in-place");
        Assert.That(mount.ExitCode, Is.EqualTo(2), mount.ToString());
        Assert.That(mount.Error.Split('\n')[0], Is.EqualTo("archiveemu mount: missing --game DIR"));
    }

    [Test]
    public void IgnoreCaseAndCaseSensitive_Together_AreAUsageError()
    {
        var result = CliRun.Run("run", "--game", Game, "--mod", Hd, "--ignore-case", "--case-sensitive", "--", "true");
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Is.EqualTo("archiveemu run: --ignore-case and --case-sensitive contradict each other"));
    }
}
