namespace ArchiveEmu.Cli.Bench;

/// <summary>How the bench runs: what the flags said.</summary>
/// <param name="Runs">Timed runs per path (interleaved across paths).</param>
/// <param name="Cold">Drop the involved files' pages before every run.</param>
/// <param name="DropAllCaches">Also drop the whole machine's caches (root only).</param>
/// <param name="RandomReads">4 KiB random reads per run.</param>
/// <param name="BlockSize">Bytes per read call of the whole-archive read.</param>
/// <param name="ScaleDown">Divides every texture's size (tests use it to stay fast).</param>
internal sealed record BenchOptions(int Runs, bool Cold, bool DropAllCaches, int RandomReads, int BlockSize, int ScaleDown)
{
    public const int RandomReadSize = 4096;

    /// <summary>Pause after each warm-up pass for the JIT to finish optimising; tests on tiny data skip it.</summary>
    public TimeSpan WarmUpPause => ScaleDown == 1 ? TimeSpan.FromMilliseconds(250) : TimeSpan.Zero;
}
