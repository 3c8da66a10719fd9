using System.CommandLine;
using ArchiveEmu.Cli.Commands;
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

    /// <summary>The host arguments <c>run</c> (or <c>mount</c>) makes from a command line, without mounting.</summary>
    private static string[] HostArgs(bool run, params string[] args)
    {
        var mount = new MountArguments(run);
        var command = mount.AddTo(new Command(run ? "run" : "mount"));
        var parse = command.Parse(args);
        Assert.That(parse.Errors, Is.Empty, string.Join("; ", parse.Errors.Select(e => e.Message)));
        return mount.HostArgs(parse, new CliConsole(TextWriter.Null, TextWriter.Null, false), mountPoint: null);
    }

    [Test]
    public void TheProfilesOptions_ReachTheHost_UnderTheCommandLines()
    {
        LinuxOnly.Require("the expected host arguments spell paths with /, which Windows spells with \\ (the mount is Linux-only)");
        var cache = _user["cache"];
        Save("--game", Game, "--mod", Hd, "--merge", "never", "--compress", "lz4", "--language", "de", "--cache", cache);
        Assert.That(HostArgs(false, "--profile", "p"), Is.EqualTo(new[]
        {
            $"--ArchiveEmu:Game={Game}", "--ArchiveEmu:InPlace=true", $"--ArchiveEmu:Mods:0={Hd}", $"--ArchiveEmu:Cache={cache}",
            "--ArchiveEmu:Merge=never", "--ArchiveEmu:Compression=lz4", "--ArchiveEmu:Language=de", "--ArchiveEmu:IgnoreCase=true",
        }));
        Assert.That(HostArgs(false, "--profile", "p", "--no-cache", "--merge", "always", "--compress", "none", "--language", "fr", "--case-sensitive", "--mod", Ui),
            Is.EqualTo(new[]
            {
                $"--ArchiveEmu:Game={Game}", "--ArchiveEmu:InPlace=true", $"--ArchiveEmu:Mods:0={Hd}", $"--ArchiveEmu:Mods:1={Ui}",
                "--ArchiveEmu:NoCache=true", "--ArchiveEmu:Merge=always", "--ArchiveEmu:Compression=none", "--ArchiveEmu:Language=fr",
            }));
    }

    [Test]
    public void Run_IgnoresLetterCaseByDefault_CaseSensitiveTurnsItOff_MountKeepsItOff()
    {
        Assert.That(HostArgs(true, "--game", Game, "--mod", Hd), Does.Contain("--ArchiveEmu:IgnoreCase=true"));
        Assert.That(HostArgs(true, "--game", Game, "--mod", Hd, "--case-sensitive"), Does.Not.Contain("--ArchiveEmu:IgnoreCase=true"));
        Assert.That(HostArgs(false, "--game", Game, "--mod", Hd), Does.Not.Contain("--ArchiveEmu:IgnoreCase=true"));
        Assert.That(HostArgs(false, "--game", Game, "--mod", Hd, "--ignore-case"), Does.Contain("--ArchiveEmu:IgnoreCase=true"));
    }

    [Test]
    public void Run_WithoutGame_ServesTheWorkingFolder_MountStillAsksForIt()
    {
        var saved = Environment.CurrentDirectory;
        Environment.CurrentDirectory = Game;
        try
        {
            Assert.That(HostArgs(true, "--mod", Hd)[0], Is.EqualTo($"--ArchiveEmu:Game={Game}"));
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
