namespace ArchiveEmu.Cli;

/// <summary>One <c>archiveemu</c> subcommand.</summary>
internal interface ICommand
{
    /// <summary>The word after <c>archiveemu</c>.</summary>
    string Name { get; }

    /// <summary>One line of usage, shown by <c>archiveemu --help</c> and on a usage error.</summary>
    string Usage { get; }

    /// <summary>Runs the command; returns the exit code. Bad input throws (IOException and friends), usage mistakes throw <see cref="UsageException"/>.</summary>
    int Run(IReadOnlyList<string> args, CliConsole console);
}
