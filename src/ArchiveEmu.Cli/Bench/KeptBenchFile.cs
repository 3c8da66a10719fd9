namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// A view of a file opened once and kept (as the mount host keeps a built archive): disposing the view
/// leaves it open, so later runs pay no opens and find merged chunks already checked.
/// </summary>
internal sealed class KeptBenchFile(BenchFile file) : BenchFile
{
    private readonly long _opensBefore = file.Opens;

    public override long Length => file.Length;
    public override int Read(long offset, Span<byte> destination) => file.Read(offset, destination);
    public override void Trace(long offset, int length, ReadTrace trace) => file.Trace(offset, length, trace);
    public override long Opens => file.Opens - _opensBefore;
    public override void Dispose() { }

    /// <summary>The kept file: opened by the first <see cref="Open"/>, closed by <see cref="Dispose"/>.</summary>
    public sealed class Shared(Func<BenchFile> open) : IDisposable
    {
        private BenchFile? _file;

        public BenchFile Open() => new KeptBenchFile(_file ??= open());

        public void Dispose() => _file?.Dispose();
    }
}
