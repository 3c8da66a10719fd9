using System.CommandLine;
using System.CommandLine.Help;
using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18, made systematic: every option of every command, found in the CLI's own command tree, given a malformed
/// value is a usage error (exit 2) of one line "… takes …, not '…'" then the usage, no stack trace. A new option that
/// takes a value and is not a path (DIR, FILE) must check its value, or this test fails. A well-formed path that does
/// not exist stays bad input (exit 1).
/// </summary>
public sealed class MalformedValueTests
{
    private const string Malformed = "not-a-value";
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-malformed");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    /// <summary>Every command that runs, with its path of names ("cache gc").</summary>
    private static IEnumerable<(string Path, Command Command)> Commands()
    {
        var root = Program.Define(Program.CreateCommands(), new CliConsole(TextWriter.Null, TextWriter.Null, false));
        var pending = new Stack<(string, Command)>(root.Subcommands.Select(c => (c.Name, c)));
        while (pending.TryPop(out var item))
        {
            if (item.Item2.Action is not null)
                yield return item;
            foreach (var sub in item.Item2.Subcommands)
                pending.Push(($"{item.Item1} {sub.Name}", sub));
        }
    }

    // A profile NAME is checked for its letters only: any other name is a profile that may not exist (bad input, exit 1).
    private static bool TakesAPath(Option option) => option.HelpName is "DIR" or "FILE" or "PATH" or "NAME";

    private static bool IsFlag(Option option) => option is Option<bool> or HelpOption or VersionOption;

    /// <summary>The command line up to the option tried: the command, the game and a mod where required, its arguments.</summary>
    private string[] Prefix(string path, Command command) =>
    [
        .. path.Split(' '),
        .. command.Options.Any(o => o.Name == "--game") ? new[] { "--game", Game } : [],
        .. command.Options.Any(o => o.Name == "--mod") ? new[] { "--mod", Hd } : [],
        .. command.Arguments.Where(a => a.Arity.MinimumNumberOfValues > 0 || a.Name == "MOUNTPOINT").Select(a => a.Name switch { "MOUNTPOINT" => _dir["mnt"], "NAME" => "p5r", _ => "data/voice.afs" }),
    ];

    [Test]
    public void EveryOptionTakingAValue_GivenAMalformedOne_IsAUsageErrorOfOneLineNamingWhatItTakes()
    {
        int tried = 0;
        foreach (var (path, command) in Commands())
            foreach (var option in command.Options.Where(o => !IsFlag(o) && !TakesAPath(o)))
            {
                var result = CliRun.Run([.. Prefix(path, command), option.Name, Malformed]);
                var lines = result.Error.TrimEnd().Split('\n');
                Assert.That(result.ExitCode, Is.EqualTo(2), $"{path} {option.Name}: {result}");
                // run adds where its log is (issue 48: under Steam a usage error is logged too)
                Assert.That(lines, Has.Length.EqualTo(path == "run" ? 3 : 2), $"{path} {option.Name}: {result}");
                if (path == "run")
                    Assert.That(lines[2], Does.StartWith("archiveemu run: nothing was started (no command after --); the log is "));
                Assert.That(lines[0], Does.Match($"^archiveemu {Regex.Escape(path)}: {Regex.Escape(option.Name)} takes .+, not '{Malformed}'$"),
                    $"{path} {option.Name}");
                Assert.That(lines[1], Does.StartWith("usage: archiveemu"));
                Assert.That(result.Error, Does.Not.Contain(" at "));
                Assert.That(Directory.Exists(_dir["mnt"]), Is.False, "the mount point was never touched");
                tried++;
            }
        Assert.That(tried, Is.GreaterThanOrEqualTo(12), "the tree was walked: build, mount, bench and cache gc options");
    }

    [Test]
    public void EveryCommandWithAGame_GivenAGameFolderThatDoesNotExist_IsBadInputOfOneLine()
    {
        int tried = 0;
        foreach (var (path, command) in Commands().Where(c => c.Command.Options.Any(o => o.Name == "--game")))
        {
            var argv = Prefix(path, command);
            argv[Array.IndexOf(argv, Game)] = _dir["no-such-game"];
            var result = CliRun.Run(argv);
            var lines = result.Error.TrimEnd().Split('\n');
            Assert.That(result.ExitCode, Is.EqualTo(1), $"{path}: {result}");
            Assert.That(lines, Has.Length.EqualTo(1), $"{path}: {result}");
            Assert.That(lines[0], Does.Contain("no-such-game"), $"{path}: {result}");
            Assert.That(result.Error, Does.Not.Contain(" at "));
            tried++;
        }
        Assert.That(tried, Is.EqualTo(7), "build, cat, ls, mount, run, doctor and profile save take --game");
    }
}
