using System.CommandLine;
using System.CommandLine.Invocation;
using System.CommandLine.Parsing;
using System.Globalization;

namespace ArchiveEmu.Cli;

/// <summary>Options whose values are checked while parsing, so a malformed value is a usage error (exit 2) naming the option.</summary>
internal static class CliOptions
{
    /// <summary><c>--name N</c>: a whole number from <paramref name="min"/> to <paramref name="max"/>.</summary>
    public static Option<int> WholeNumber(string name, int fallback, int min, int max, string description) => new(name)
    {
        Description = description,
        HelpName = "N",
        DefaultValueFactory = _ => fallback,
        CustomParser = result =>
        {
            if (result.Tokens.Count == 0)
                return fallback;
            var text = result.Tokens[0].Value;
            if (int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out int value) && value >= min && value <= max)
                return value;
            result.AddError($"{name} takes a whole number from {min} to {max}, not '{text}'");
            return fallback;
        },
    };

    /// <summary>
    /// <c>--name WORD</c>: one of <paramref name="words"/>; null when the option is absent. With <paramref name="bare"/>,
    /// the value may be left out (<c>--merge</c> alone) and means <paramref name="bare"/>. With <paramref name="ignoreCase"/>,
    /// any spelling of a word is taken and stands for the word as listed.
    /// </summary>
    public static Option<string> Word(string name, string description, string[] words, string? bare = null, bool ignoreCase = false)
    {
        var option = new Option<string>(name)
        {
            Description = description,
            HelpName = string.Join('|', words),
            Arity = bare is null ? ArgumentArity.ExactlyOne : ArgumentArity.ZeroOrOne,
            CustomParser = result =>
            {
                if (result.Tokens.Count == 0)
                    return bare;
                var text = result.Tokens[0].Value;
                var comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
                if (words.FirstOrDefault(w => string.Equals(w, text, comparison)) is { } word)
                    return word;
                result.AddError(Takes(name, words, text));
                return null;
            },
        };
        option.CompletionSources.Add(words);
        return option;
    }

    /// <summary><c>--name FILE.ext</c>: a file name ending in <paramref name="extension"/> (any case); null when the option is absent.</summary>
    public static Option<string> FileEndingIn(string name, string extension, string description) => new(name)
    {
        Description = description,
        HelpName = $"FILE{extension}",
        CustomParser = result =>
        {
            if (result.Tokens.Count == 0)
                return null; // the parser reports the missing value
            var text = result.Tokens[0].Value;
            if (text.EndsWith(extension, StringComparison.OrdinalIgnoreCase) && Path.GetFileName(text).Length > extension.Length)
                return text;
            result.AddError($"{name} takes a file name ending in {extension}, not '{text}'");
            return null;
        },
    };

    /// <summary>The one shape of a wrong word, for every option and setting: "--merge takes auto, always or never, not 'sometimes'".</summary>
    public static string Takes(string name, IReadOnlyList<string> words, string text) =>
        $"{name} takes {string.Join(", ", words.Take(words.Count - 1))} or {words[^1]}, not '{text}'";

    /// <summary>Adds a rule across options: <paramref name="problem"/> returns the usage error, or null when the command line is fine.</summary>
    public static void Validate(this Command command, Func<CommandResult, string?> problem) =>
        command.Validators.Add(result =>
        {
            string? message;
            try
            {
                message = problem(result);
            }
            catch (InvalidOperationException)
            {
                return; // a value the rule reads did not parse: that option's own error is reported
            }
            if (message is not null)
                result.AddError(message);
        });

    /// <summary>Whether the option was given on the command line (not just defaulted).</summary>
    public static bool Given(this CommandResult result, Option option) => result.GetResult(option) is { Implicit: false };

    /// <summary>Sets the action that runs when this command is chosen.</summary>
    public static Command Runs(this Command command, Func<ParseResult, int> action)
    {
        command.SetAction(action);
        return command;
    }

    /// <summary>
    /// Refuses an empty value for every option of <paramref name="command"/> and its subcommands that takes text (<c>--game ""</c>,
    /// <c>--cache "$UNSET"</c>): a usage error naming the option, where .NET's path functions would stop with an exception.
    /// </summary>
    public static void RefuseEmptyValues(Command command)
    {
        foreach (var option in command.Options.Where(o => o.ValueType == typeof(string) || o.ValueType == typeof(string[])))
            option.Validators.Add(result =>
            {
                if (result.Tokens.Any(t => t.Value.Length == 0))
                    result.AddError($"{option.Name} takes {option.HelpName ?? "a value"}, not an empty string");
            });
        foreach (var sub in command.Subcommands)
            RefuseEmptyValues(sub);
    }
}

/// <summary>An action given as a function (the <c>--version</c> answer).</summary>
internal sealed class FunctionAction(Func<ParseResult, int> run) : SynchronousCommandLineAction
{
    public override int Invoke(ParseResult parseResult) => run(parseResult);
}
