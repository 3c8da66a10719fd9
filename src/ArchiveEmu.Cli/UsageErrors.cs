using System.CommandLine;
using System.CommandLine.Parsing;

namespace ArchiveEmu.Cli;

/// <summary>
/// How a command line the parser rejected is reported: one line naming the command and the first problem (with a
/// suggestion for a mistyped command or option), then one line with the command's usage and its <c>--help</c>; exit 2.
/// </summary>
internal static class UsageErrors
{
    /// <summary>
    /// An argument before <c>--</c> that looks like an option (<c>-x</c>, <c>--frobnicate</c>): the parser fills an open
    /// ARCHIVE or MAP.json with it, archiveemu calls it an unknown option. After <c>--</c> it is an argument like any other.
    /// </summary>
    public static string? OptionLikeArgument(ParseResult parse)
    {
        var beforeDoubleDash = parse.Tokens.TakeWhile(t => t.Type != TokenType.DoubleDash).ToHashSet();
        return parse.CommandResult.Command.Arguments
            .SelectMany(argument => parse.CommandResult.GetResult(argument)?.Tokens ?? [])
            .FirstOrDefault(t => t.Value.Length > 1 && t.Value[0] == '-' && beforeDoubleDash.Contains(t))?.Value;
    }

    public static int Report(ParseResult parse, IReadOnlyList<ICommand> commands, CliConsole console, string? optionLike = null)
    {
        var command = parse.CommandResult.Command;
        string path = PathOf(command);
        console.Error.WriteLine($"{path}: {(optionLike is null ? Problem(parse, command) : UnknownOption(optionLike, command))}");
        var top = TopLevel(command);
        var usage = top is null ? $"archiveemu {string.Join('|', commands.Select(c => c.Name))} …" : commands.Single(c => c.Name == top.Name).Usage;
        console.Error.WriteLine($"usage: {usage}; '{path} --help' {(top is null ? "lists the commands" : "describes every option")}");
        return 2;
    }

    /// <summary>"archiveemu", "archiveemu build", "archiveemu cache gc".</summary>
    public static string PathOf(Command command)
    {
        var names = new List<string>();
        for (var c = command; c is not null and not RootCommand; c = c.Parents.OfType<Command>().FirstOrDefault())
            names.Insert(0, c.Name);
        return string.Join(' ', ["archiveemu", .. names]);
    }

    public static string OneLine(string message) => message.ReplaceLineEndings(" ");

    private static Command? TopLevel(Command command)
    {
        var c = command;
        while (c.Parents.OfType<Command>().FirstOrDefault() is { } parent and not RootCommand)
            c = parent;
        return c is RootCommand ? null : c;
    }

    private static string Problem(ParseResult parse, Command command)
    {
        if (parse.UnmatchedTokens is [var token, ..])
        {
            if (token.Length > 1 && token[0] == '-')
                return UnknownOption(token, command);
            if (command.Subcommands.Count > 0)
                return $"unknown command '{token}'{Suggest(token, command.Subcommands.Select(c => c.Name), quote: true)}";
            return $"unexpected argument '{token}'";
        }
        if (command.Subcommands.Count > 0 && command.Action is null)
            return $"missing command ({string.Join(", ", command.Subcommands.Select(c => c.Name))})";
        return OneLine(parse.Errors[0].Message).TrimEnd('.');
    }

    private static string UnknownOption(string token, Command command) =>
        $"unknown option {token}{Suggest(token.Split('=', ':')[0], OptionNames(command), quote: false)}";

    /// <summary>The command's options and the ones it inherits (<c>--help</c>), by every name they answer to.</summary>
    private static IEnumerable<string> OptionNames(Command command)
    {
        var options = command.Options.AsEnumerable();
        for (var parent = command.Parents.OfType<Command>().FirstOrDefault(); parent is not null; parent = parent.Parents.OfType<Command>().FirstOrDefault())
            options = options.Concat(parent.Options.Where(o => o.Recursive));
        return options.Where(o => !o.Hidden).SelectMany(o => o.Aliases.Prepend(o.Name));
    }

    /// <summary>"; did you mean --merge?" when one name is a typo away from <paramref name="token"/>.</summary>
    private static string Suggest(string token, IEnumerable<string> names, bool quote)
    {
        int allowed = Math.Max(1, token.TrimStart('-').Length / 3);
        var best = names.Select(n => (Name: n, Distance: Distance(token, n))).Where(n => n.Distance <= allowed)
            .OrderBy(n => n.Distance).FirstOrDefault();
        return best.Name is null ? "" : quote ? $"; did you mean '{best.Name}'?" : $"; did you mean {best.Name}?";
    }

    /// <summary>Edits (insert, delete, replace, swap two neighbours) between two words.</summary>
    internal static int Distance(string a, string b)
    {
        var d = new int[a.Length + 1][];
        for (int i = 0; i <= a.Length; i++)
        {
            d[i] = new int[b.Length + 1];
            d[i][0] = i;
        }
        for (int j = 0; j <= b.Length; j++)
            d[0][j] = j;
        for (int i = 1; i <= a.Length; i++)
            for (int j = 1; j <= b.Length; j++)
            {
                d[i][j] = Math.Min(Math.Min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i][j] = Math.Min(d[i][j], d[i - 2][j - 2] + 1);
            }
        return d[a.Length][b.Length];
    }
}
