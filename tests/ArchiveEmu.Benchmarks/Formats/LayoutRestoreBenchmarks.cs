using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Issue 20's start-up question, per format at 65,536 entries with 10% injected: <c>Parse</c> is what ArchiveServer
/// does on a cache miss (read and validate the original's index, apply the patch, build the emulated archive);
/// <c>Restore</c> what it does on a layout hit (read the layout blob from its pack, check its hash, deserialise, open
/// the virtual file). Both after routing (the key and the inputs' stats are paid on either path). Warm page cache.
/// Run: <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- --filter '*LayoutRestore*'</c>.
/// </summary>
[SimpleJob(RunStrategy.Throughput, launchCount: 1, warmupCount: 3, iterationCount: 10)]
[MemoryDiagnoser]
public class LayoutRestoreBenchmarks
{
    private const int Entries = 65_536;
    private string _folder = "";
    private ArchiveRoute _route = null!;
    private MergedFileCache _cache = null!;
    private CacheEntry _entry = null!;
    private readonly FileHandlePool _pool = new(64);

    [Params("afs", "awb", "pak", "tar", "zip", "img")]
    public string Format { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        _folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-layout-{Format}-{Environment.ProcessId}");
        _route = LayoutRestoreFixture.Write(Format, Path.Combine(_folder, "game"), Entries);
        _cache = new MergedFileCache(Path.Combine(_folder, "cache"));
        var key = RouteKey.For(_route, ["mod"], verifyContent: false);
        using (var archive = _route.Build(_pool))
            _cache.Store(key, archive, merge: false, ChunkCompression.None);
        _entry = _cache.Find(key) ?? throw new InvalidOperationException("the layout was not stored");
    }

    [Benchmark(Baseline = true)]
    public long Parse()
    {
        using var archive = _route.Build(_pool);
        return archive.File.Length;
    }

    [Benchmark]
    public long Restore()
    {
        using var archive = _cache.TryOpenLayout(_entry, _pool) ?? throw new InvalidOperationException("the stored layout did not open");
        return archive.File.Length;
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_folder, recursive: true);
}
