using System.CommandLine;

namespace ArchiveEmu.Cli;

/// <summary>One <c>archiveemu</c> subcommand.</summary>
internal interface ICommand
{
    /// <summary>The word after <c>archiveemu</c>.</summary>
    string Name { get; }

    /// <summary>One line of usage, shown after a usage error (the same as in docs/USAGE.md).</summary>
    string Usage { get; }

    /// <summary>
    /// The command's options and arguments, each described in one line for <c>--help</c>, and its action, which writes to
    /// <paramref name="console"/> and returns the exit code. Bad input throws (IOException and friends); usage mistakes
    /// are parse errors (unknown options, malformed values, validators) and never reach the action.
    /// </summary>
    Command Define(CliConsole console);
}
