using System.Text;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// <c>run</c>'s stderr: every line written to it goes to the terminal and, whole, to the run's log (<paramref name="log"/>, RunLog's Write).
/// One writer for both, so no line reaches one and misses the other: under Steam nobody sees stderr, and the log used to
/// miss the Reloaded-II lines ("reloaded …", "mod N …", "skipped …") and the warnings.
/// </summary>
internal sealed class LoggedWriter(TextWriter terminal, Action<string> log) : TextWriter
{
    private readonly StringBuilder _line = new();

    public override Encoding Encoding => terminal.Encoding;

    /// <summary>The first whole line written, or null: the reason a notice repeats.</summary>
    public string? FirstLine { get; private set; }

    public override void Write(char value)
    {
        terminal.Write(value);
        if (value == '\n')
            EndLine();
        else if (value != '\r')
            _line.Append(value);
    }

    public override void Write(string? value)
    {
        if (value is null)
            return;
        terminal.Write(value);
        int start = 0;
        for (int newline; (newline = value.IndexOf('\n', start)) >= 0; start = newline + 1)
        {
            _line.Append(value.AsSpan(start, newline - start).TrimEnd('\r'));
            EndLine();
        }
        _line.Append(value.AsSpan(start));
    }

    public override void WriteLine(string? value) => Write((value ?? "") + "\n");

    public override void Flush() => terminal.Flush();

    /// <summary>A line for the log alone: one the terminal leaves out (<see cref="CappedLines"/>).</summary>
    public void LogOnly(string line) => log(line);

    /// <summary>A last line without its newline still reaches the log.</summary>
    protected override void Dispose(bool disposing)
    {
        if (disposing && _line.Length > 0)
            EndLine();
        base.Dispose(disposing);
    }

    private void EndLine()
    {
        FirstLine ??= _line.ToString();
        log(_line.ToString());
        _line.Clear();
    }
}
