namespace ArchiveEmu.Cli;

/// <summary>Where a command writes: its output, its errors, and whether a person is watching (for progress display).</summary>
internal sealed class CliConsole(TextWriter output, TextWriter error, bool isInteractive)
{
    public static CliConsole System => new(Console.Out, Console.Error, !Console.IsErrorRedirected && !Console.IsOutputRedirected);

    public TextWriter Out { get; } = output;
    public TextWriter Error { get; } = error;

    /// <summary>True on a terminal: progress may be drawn on stderr. False when piped or redirected.</summary>
    public bool IsInteractive { get; } = isInteractive;
}
