using System.Diagnostics;

namespace ArchiveEmu.Cli.Commands;

/// <summary>A one-line progress bar on stderr while a terminal watches; silent when output is piped.</summary>
internal sealed class ProgressBar(CliConsole console, string label) : IDisposable
{
    private const int Width = 30;
    private readonly Stopwatch _sinceDraw = Stopwatch.StartNew();
    private bool _drawn;

    public void Report(long done, long total)
    {
        if (!console.IsInteractive || (_sinceDraw.ElapsedMilliseconds < 100 && done < total))
            return;
        _sinceDraw.Restart();
        double fraction = total == 0 ? 1 : (double)done / total;
        int filled = (int)(fraction * Width);
        console.Error.Write($"\r  merging [{new string('#', filled)}{new string('.', Width - filled)}] {fraction * 100,3:F0}% {label}"); // not P0: cultures space the % differently
        _drawn = true;
    }

    public void Dispose()
    {
        if (_drawn)
            console.Error.Write("\r" + new string(' ', Width + 24 + label.Length) + "\r");
    }
}
