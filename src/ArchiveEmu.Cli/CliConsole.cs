namespace ArchiveEmu.Cli;

/// <summary>Where a command writes: its output, its errors, and whether a person is watching (for progress display).</summary>
internal sealed class CliConsole(TextWriter output, TextWriter error, bool isInteractive)
{
    public static CliConsole System
    {
        get
        {
            if (OperatingSystem.IsWindows())
                WriteUtf8OnWindows();
            return new(Console.Out, Console.Error, !Console.IsErrorRedirected && !Console.IsOutputRedirected);
        }
    }

    /// <summary>
    /// Windows consoles start in an OEM code page, where text such as "≤" or an entry's non-ASCII name would be written
    /// as "=" or "?": write UTF-8 (without a byte-order mark) as on Linux, so `ls --json` and reports mean the same bytes.
    /// </summary>
    private static void WriteUtf8OnWindows()
    {
        try
        {
            Console.OutputEncoding = new global::System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        }
        catch (IOException)
        {
            // no console to set the code page of: the writers keep their default
        }
    }

    public TextWriter Out { get; } = output;
    public TextWriter Error { get; } = error;

    /// <summary>True on a terminal: progress may be drawn on stderr. False when piped or redirected.</summary>
    public bool IsInteractive { get; } = isInteractive;
}
