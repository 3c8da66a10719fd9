using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests;

/// <summary>The command line as a new user meets it: help everywhere, the version, typo suggestions, usage errors, <c>--</c>.</summary>
public sealed class CommandLineTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-usage");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private const string GameOptions = "--game --mod --cache --no-cache";

    [TestCase("build", GameOptions + " --verify-content --merge --compress --max-archive-size --max-injected-size --json")]
    [TestCase("cat", GameOptions + " --verify-content -o --force ARCHIVE")]
    [TestCase("ls", GameOptions + " --verify-content --json ARCHIVE")]
    [TestCase("vfs", "-o --force MAP.json")]
    [TestCase("mount", GameOptions + " --merge --compress --log-level --ignore-case --in-place MOUNTPOINT")]
    [TestCase("run", GameOptions + " --merge --compress --log-level --ignore-case --in-place COMMAND")]
    [TestCase("unmount", "DIR")]
    [TestCase("bench", "--runs --cold --drop-caches --random-reads --block-size --dir --json --explain --brief SCENARIO")]
    [TestCase("cache", "--cache ls verify gc clear")]
    [TestCase("cache ls", "--cache --json")]
    [TestCase("cache verify", "--cache")]
    [TestCase("cache gc", "--cache --max-age-days")]
    [TestCase("cache clear", "--cache")]
    public void EveryCommandAnswersHelpWithItsUsageAndEachOptionDescribedOnOneLine(string command, string names)
    {
        foreach (var help in new[] { "--help", "-h" })
        {
            var result = CliRun.Run([.. command.Split(' '), help]);
            Assert.That(result.ExitCode, Is.Zero, result.ToString());
            Assert.That(result.Error, Is.Empty);
            Assert.That(result.Out, Does.Contain("Usage:").And.Contain($"{command} "));
            var lines = result.Out.Split('\n');
            foreach (var name in names.Split(' '))
                Assert.That(lines, Has.Some.Match($@"^\s+(-\w, )?<?{Regex.Escape(name)}\b.*?\s{{2,}}\w"),
                    $"'{name}' is listed with a description on its own line:\n{result.Out}");
        }
    }

    [Test]
    public void TheToolsHelpListsEveryCommandAndHelpBeforeACommandNameIsThatCommandsHelp()
    {
        var result = CliRun.Run("--help");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        foreach (var command in new[] { "build", "cat", "ls", "vfs", "cache", "mount", "run", "unmount", "bench" })
            Assert.That(result.Out, Does.Match($@"(?m)^\s+{command}\b.*\s{{2,}}\w"));
        Assert.That(result.Out, Does.Contain("--version"));
        Assert.That(CliRun.Run("help", "build").Out, Is.EqualTo(CliRun.Run("build", "--help").Out));
    }

    [Test]
    public void VersionPrintsThePackageVersionAndTheCommitItWasBuiltFrom()
    {
        var result = CliRun.Run("--version");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error, Is.Empty);
        bool builtFromGit = Directory.Exists(Path.Combine(CliRun.RepositoryRoot, ".git")) || File.Exists(Path.Combine(CliRun.RepositoryRoot, ".git"));
        Assert.That(result.Out.TrimEnd(), Does.Match(builtFromGit ? @"^\d+\.\d+\.\d+(-[\w.]+)?\+[0-9a-f]{40}$" : @"^\d+\.\d+\.\d+"));
    }

    [TestCase("biuld", "archiveemu: unknown command 'biuld'; did you mean 'build'?")]
    [TestCase("build --mergee", "archiveemu build: unknown option --mergee; did you mean --merge?")]
    [TestCase("cache verfy", "archiveemu cache: unknown command 'verfy'; did you mean 'verify'?")]
    [TestCase("bench --rnus=2", "archiveemu bench: unknown option --rnus=2; did you mean --runs?")]
    public void AMistypedCommandOrOptionIsAUsageErrorThatSuggestsTheNearestName(string args, string firstLine)
    {
        var result = CliRun.Run(args.Split(' '));
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Does.StartWith(firstLine));
    }

    [TestCase("build --game GAME", "missing --mod DIR")]
    [TestCase("build --mod HD", "missing --game DIR")]
    [TestCase("build --game GAME --mod HD --merge sometimes", "--merge takes auto, always or never, not 'sometimes'")]
    [TestCase("build --game GAME --mod HD --merge --compress zstd", "--compress takes auto, lz4 or none, not 'zstd'")]
    [TestCase("build --game GAME --mod HD --merge --compress sometimes", "archiveemu build: --compress takes auto, lz4 or none, not 'sometimes'")]
    [TestCase("mount --game GAME --mod HD --compress sometimes DIR", "archiveemu mount: --compress takes auto, lz4 or none, not 'sometimes'")]
    [TestCase("build --game GAME --mod HD --max-archive-size 12Q", "--max-archive-size takes a size such as 32M or 1048576, not '12Q'")]
    [TestCase("build --game GAME --mod HD --merge --no-cache", "--merge needs the cache; drop --no-cache")]
    [TestCase("cat --game GAME --mod HD --cache DIR --no-cache data/voice.afs", "--cache and --no-cache contradict each other")]
    [TestCase("cat --game GAME --mod HD", "Required argument 'ARCHIVE' missing")]
    [TestCase("ls --game GAME --mod HD a b", "unexpected argument 'b'")]
    [TestCase("cat --game GAME --mod HD -weird-name", "unknown option -weird-name")]
    [TestCase("mount --game GAME --mod HD --merge sometimes DIR", "--merge takes auto, always or never, not 'sometimes'")]
    [TestCase("mount --game GAME --mod HD --in-place DIR", "--in-place mounts over the game folder itself: give no MOUNTPOINT with it")]
    [TestCase("mount --game GAME --mod HD", "missing MOUNTPOINT (or --in-place to mount over the game folder itself)")]
    [TestCase("unmount", "Required argument 'DIR' missing")]
    [TestCase("cache", "missing command (ls, verify, gc, clear)")]
    [TestCase("cache gc --max-age-days soon", "--max-age-days takes a whole number from 0 to 36500, not 'soon'")]
    [TestCase("bench --block-size 1K", "--block-size takes 4K to 1G, not '1K'")]
    [TestCase("frobnicate", "unknown command 'frobnicate'")]
    // An empty value ("$UNSET" in a launch line) names its option; --game "" and --mod "" threw .NET's ArgumentException.
    [TestCase("build --game EMPTY --mod HD", "archiveemu build: --game takes DIR, not an empty string")]
    [TestCase("build --game GAME --mod EMPTY", "archiveemu build: --mod takes DIR, not an empty string")]
    [TestCase("build --game GAME --mod HD --cache EMPTY", "archiveemu build: --cache takes DIR, not an empty string")]
    [TestCase("profile save p --game EMPTY --mod HD", "archiveemu profile save: --game takes DIR, not an empty string")]
    public void AUsageErrorIsOneLineThenTheUsageAndAPointerToHelp(string args, string problem)
    {
        var argv = args.Split(' ').Select(a => a switch { "GAME" => Game, "HD" => Hd, "DIR" => _dir.Path, "EMPTY" => "", _ => a }).ToArray();
        var result = CliRun.Run(argv);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Out, Is.Empty);
        var lines = result.Error.TrimEnd().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(2), result.ToString());
        Assert.That(lines[0], Does.StartWith("archiveemu").And.Contain(problem));
        Assert.That(lines[1], Does.StartWith("usage: archiveemu").And.Contain("--help'"));
    }

    [Test]
    public void Run_TakesInPlaceWrittenOut_AsImplied()
    {
        var missing = _dir["no-such-game"];
        var result = CliRun.Run("run", "--in-place", "--game", missing, "--mod", Hd, "--", "true");
        Assert.That(result.ExitCode, Is.EqualTo(1), "the flag is taken; the missing game folder is bad input, not usage\n" + result);
        Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.Contain(missing));
    }

    [Test]
    public void AfterDoubleDashAnArgumentThatLooksLikeAnOptionIsTheArchiveName()
    {
        var result = CliRun.Run("cat", "--game", Game, "--mod", Hd, "--", "-weird-name");
        Assert.That(result.ExitCode, Is.EqualTo(1), "taken as the ARCHIVE, which does not exist: bad input, not usage\n" + result);
        Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(result.Error, Does.Contain("-weird-name"));
    }

    [Test]
    public void BareMergeBeforeAnotherOptionMeansAutoAndWithoutMergeNothingIsMerged()
    {
        var cache = _dir["cache"];
        var plain = CliRun.Run("build", "--game", Game, "--mod", Hd, "--cache", cache, "--json");
        Assert.That(plain.ExitCode, Is.Zero, plain.ToString());
        Assert.That(CliRun.Run("cache", "ls", "--cache", cache, "--json").Out, Does.Contain("\"merged\": false").And.Not.Contain("\"merged\": true"));

        var merged = CliRun.Run("build", "--game", Game, "--mod", Hd, "--merge", "--cache", cache, "--json");
        Assert.That(merged.ExitCode, Is.Zero, merged.ToString());
        Assert.That(CliRun.Run("cache", "--cache", cache, "ls", "--json").Out, Does.Contain("\"merged\": true"));
    }

    [Test]
    public void ShellCompletionOffersTheOptionsThatStartWithWhatWasTyped()
    {
        var result = CliRun.Run("[suggest:11]", "build --mer");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries), Is.EqualTo(new[] { "--merge" }));
    }
}
