using System.Diagnostics;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// A one-line progress bar on stderr while a terminal watches (<see cref="CliConsole.IsInteractive"/>: neither stdout nor stderr
/// redirected); silent when output is piped. Redrawn at most every 100 ms, and once at the end.
/// </summary>
/// <param name="verb">What is under way: "merging", "building", "verifying".</param>
/// <param name="count">Counts things (3/12 archives) instead of a percentage of bytes.</param>
internal sealed class ProgressBar(CliConsole console, string label, string verb = "merging", string? count = null) : IDisposable
{
    private const int Width = 30;
    private readonly Stopwatch _sinceDraw = Stopwatch.StartNew();
    private int _drawnLength;

    /// <summary>The label shown after the bar from now on (the archive being built).</summary>
    public string Label { get; set; } = label;

    public void Report(long done, long total)
    {
        if (!console.IsInteractive || (_sinceDraw.ElapsedMilliseconds < 100 && done < total))
            return;
        _sinceDraw.Restart();
        double fraction = total == 0 ? 1 : (double)done / total;
        int filled = (int)(fraction * Width);
        string amount = count is null ? $"{fraction * 100,3:F0}%" : $"{done}/{total} {count}"; // not P0: cultures space the % differently
        string line = $"  {verb} [{new string('#', filled)}{new string('.', Width - filled)}] {amount} {Label}";
        console.Error.Write("\r" + line.PadRight(_drawnLength));
        _drawnLength = Math.Max(_drawnLength, line.Length);
    }

    public void Dispose()
    {
        if (_drawnLength > 0)
            console.Error.Write("\r" + new string(' ', _drawnLength) + "\r");
        _drawnLength = 0;
    }
}
