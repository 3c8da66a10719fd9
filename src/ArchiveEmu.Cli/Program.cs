using System.CommandLine;
using System.CommandLine.Invocation;
using System.Reflection;
using ArchiveEmu.Cli.Commands;

namespace ArchiveEmu.Cli;

/// <summary>
/// Entry point of <c>archiveemu</c>: exit 0 ok, 1 bad input (one line on stderr naming the file), 2 usage (one line on
/// stderr, then the command's usage and where its help is). The commands are System.CommandLine definitions: every
/// command has <c>-h/--help</c>, the tool has <c>--version</c> and the <c>[suggest]</c> directive for shell completion.
/// </summary>
public static class Program
{
    /// <summary>The package version, then after a '+' the commit it was built from (when git knew it at build time).</summary>
    internal static string Version { get; } =
        typeof(Program).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    /// <summary>A fresh set of commands: options belong to the command line they were parsed from.</summary>
    internal static IReadOnlyList<ICommand> CreateCommands() =>
    [
        new BuildCommand(),
        new CatCommand(),
        new LsCommand(),
        new VfsCommand(),
        new CacheCommand(),
        new MountCommand(),
        new RunCommand(),
        new UnmountCommand(),
        new ProfileCommand(),
        new BenchCommand(),
        new DoctorCommand(),
        new UpdateCommand(),
    ];

    public static int Main(string[] args) => Run(args, CliConsole.System);

    internal static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var commands = CreateCommands();
        var root = Define(commands, console);
        if (args.Count == 0)
        {
            // Nothing asked: the overview, on stderr since it is not what anybody piped for.
            root.Parse(["--help"]).Invoke(Invocation(new CliConsole(console.Error, console.Error, console.IsInteractive)));
            return 2;
        }
        if (args[0] == "help")
            args = [.. args.Skip(1), "--help"];

        // No response files: an argument starting with '@' is a file name like any other.
        var parse = root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        if (parse.Action is { ClearsParseErrors: false } && UsageErrors.OptionLikeArgument(parse) is { } unknown)
            return ReportUsage(parse, commands, console, args, unknown);
        if (parse.Action is ParseErrorAction)
            return ReportUsage(parse, commands, console, args);
        try
        {
            return parse.Invoke(Invocation(console));
        }
        catch (Exception e) when (IsBadInput(e))
        {
            console.Error.WriteLine($"{UsageErrors.PathOf(parse.CommandResult.Command)}: {UsageErrors.OneLine(e.Message)}");
            return 1;
        }
    }

    // run's usage errors also reach its log and the desktop, and honour --on-failure play: under Steam nobody sees stderr.
    private static int ReportUsage(ParseResult parse, IReadOnlyList<ICommand> commands, CliConsole console, IReadOnlyList<string> args, string? unknown = null) =>
        parse.CommandResult.Command is { Name: "run", Parents: var parents } && parents.OfType<RootCommand>().Any()
            ? RunCommand.UsageFailed(args, console, logged => UsageErrors.Report(parse, commands, logged, unknown))
            : UsageErrors.Report(parse, commands, console, unknown);

    internal static RootCommand Define(IReadOnlyList<ICommand> commands, CliConsole console)
    {
        var root = new RootCommand("archiveemu: build, read and benchmark emulated game archives.");
        foreach (var version in root.Options.OfType<VersionOption>())
            version.Action = new FunctionAction(_ =>
            {
                console.Out.WriteLine(Version);
                return 0;
            });
        foreach (var help in root.Options.OfType<System.CommandLine.Help.HelpOption>())
        {
            help.Aliases.Remove("/h"); // Windows spellings: on Linux "/h" and "/?" are paths
            help.Aliases.Remove("/?");
        }
        foreach (var command in commands)
            root.Subcommands.Add(command.Define(console));
        CliOptions.RefuseEmptyValues(root);
        return root;
    }

    /// <summary>Help and version go to the console; exceptions reach <see cref="Run"/>; signals are left to the commands (mount, bench).</summary>
    private static InvocationConfiguration Invocation(CliConsole console) => new()
    {
        Output = console.Out,
        Error = console.Error,
        EnableDefaultExceptionHandler = false,
        ProcessTerminationTimeout = null,
    };

    /// <summary>Errors caused by the user's files or folders, reported as one line rather than a stack trace.</summary>
    internal static bool IsBadInput(Exception e) =>
        e is IOException or InvalidDataException or UnauthorizedAccessException or System.Text.Json.JsonException
            or ArgumentException;
}
