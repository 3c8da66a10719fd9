using System.Globalization;
using ArchiveEmu.Core.Formats;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Issue 3's build benchmark: an AFS archive of 65,536 entries (1 GiB) with 10% of the entries
/// injected from loose files. <c>Build</c> is what ArchiveEmu does (read and validate the original
/// index, stat the loose files, rebuild the header, lay out the segment map); <c>Repack</c> is what
/// a user does without it (write the whole modded archive; to the page cache, no fsync, which is the
/// fastest a repack can be). Cold data is not the point here: both run warm.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 10)]
[MemoryDiagnoser]
public class BuildVersusRepackBenchmarks
{
    private const int Entries = 65_536;
    private const int EntrySize = 16 * 1024;
    private string _folder = "";
    private string _archive = "";
    private string[] _loose = [];
    private IArchiveFormat _afs = null!;

    [GlobalSetup]
    public void Setup()
    {
        _afs = ArchiveFormats.ByName("afs") ?? throw new InvalidOperationException("the AFS format is not registered");
        _folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-build-{Environment.ProcessId}");
        LargeAfsFixture.Write(_folder, Entries, EntrySize, injectEvery: 10, out _archive, out _loose);
    }

    [Benchmark]
    public long Build()
    {
        using var archive = BuildArchive();
        return archive.File.Length;
    }

    [Benchmark(Baseline = true)]
    public long Repack()
    {
        using var archive = BuildArchive();
        var output = Path.Combine(_folder, "repacked.afs");
        var buffer = new byte[1 << 20];
        using (var stream = new FileStream(output, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            for (long at = 0; at < archive.File.Length;)
            {
                int n = archive.File.Read(at, buffer);
                stream.Write(buffer, 0, n);
                at += n;
            }
        }
        return new FileInfo(output).Length;
    }

    private EmulatedArchive BuildArchive()
    {
        var index = _afs.ReadIndex(_archive);
        var changes = _loose.Select(path => new EntryChange(
            EntryKey.ByIndex(int.Parse(Path.GetFileNameWithoutExtension(path), CultureInfo.InvariantCulture)),
            EntryInput.FromFile(path), "mod"));
        return _afs.Build(index, new ArchivePatch(changes));
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_folder, recursive: true);
}
