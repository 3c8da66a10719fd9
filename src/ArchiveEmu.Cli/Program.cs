using ArchiveEmu.Cli.Commands;

namespace ArchiveEmu.Cli;

/// <summary>Entry point of <c>archiveemu</c>: exit 0 ok, 1 bad input (one line on stderr), 2 usage.</summary>
public static class Program
{
    internal static IReadOnlyList<ICommand> Commands { get; } = new ICommand[]
    {
        new BuildCommand(),
        new CatCommand(),
        new LsCommand(),
        new VfsCommand(),
        new CacheCommand(),
        new MountCommand(),
        new Commands.Bench.BenchCommand(),
    };

    public static int Main(string[] args) => Run(args, CliConsole.System);

    internal static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        if (args.Count == 0 || args[0] is "-h" or "--help" or "help")
        {
            PrintUsage(args.Count == 0 ? console.Error : console.Out);
            return args.Count == 0 ? 2 : 0;
        }

        var command = Commands.FirstOrDefault(c => c.Name == args[0]);
        if (command is null)
        {
            console.Error.WriteLine($"archiveemu: unknown command '{args[0]}'");
            PrintUsage(console.Error);
            return 2;
        }

        try
        {
            return command.Run(args.Skip(1).ToArray(), console);
        }
        catch (UsageException e)
        {
            console.Error.WriteLine($"archiveemu {command.Name}: {e.Message}");
            console.Error.WriteLine($"usage: {command.Usage}");
            return 2;
        }
        catch (Exception e) when (IsBadInput(e))
        {
            console.Error.WriteLine($"archiveemu {command.Name}: {OneLine(e.Message)}");
            return 1;
        }
    }

    /// <summary>Errors caused by the user's files or folders, reported as one line rather than a stack trace.</summary>
    internal static bool IsBadInput(Exception e) =>
        e is IOException or InvalidDataException or UnauthorizedAccessException or System.Text.Json.JsonException
            or ArgumentException;

    private static string OneLine(string message) => message.ReplaceLineEndings(" ");

    private static void PrintUsage(TextWriter writer)
    {
        writer.WriteLine("usage:");
        foreach (var command in Commands)
            writer.WriteLine($"  {command.Usage}");
    }
}
