namespace ArchiveEmu.Cli.Bench;

/// <summary>One line on stderr saying what the bench is doing, redrawn in place while a terminal watches; silent when piped.</summary>
internal sealed class BenchStatus(CliConsole console) : IDisposable
{
    private int _width;

    public void Show(string text)
    {
        if (!console.IsInteractive)
            return;
        console.Error.Write("\r  " + text.PadRight(_width));
        _width = Math.Max(_width, text.Length);
    }

    public void Dispose()
    {
        if (_width > 0)
            console.Error.Write("\r" + new string(' ', _width + 2) + "\r");
    }
}
