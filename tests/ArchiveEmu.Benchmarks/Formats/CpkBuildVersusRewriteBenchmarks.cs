using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport.Cri;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Issue 21's build benchmark: a named CPK of 20,000 entries (2–24 KiB each, about 270 MB, alignment 0x800) with
/// 10% of the entries replaced by loose files. <c>Build</c> is what ArchiveEmu does (read and validate the header and
/// the TOC, stat the loose files, rebuild the tables, lay out the segment map); <c>Rewrite</c> is what a user does
/// without it: read every entry (the originals from the CPK, the replaced ones from the loose files) and write a whole
/// new CPK with the independent test writer, to the page cache (flushed to the OS, no fsync: the fastest a rewrite
/// can be). Both run warm.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 10)]
[MemoryDiagnoser]
public class CpkBuildVersusRewriteBenchmarks
{
    private const int Entries = 20_000;
    private const int ReplaceEvery = 10;
    private string _folder = "";
    private string _archive = "";
    private Dictionary<string, string> _loose = [];

    [GlobalSetup]
    public void Setup()
    {
        _folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-cpk-{Environment.ProcessId}");
        Directory.CreateDirectory(_folder);
        var random = new Random(21);
        var entries = new List<CpkTestWriter.NamedEntry>(Entries);
        for (int i = 0; i < Entries; i++)
        {
            var content = new byte[random.Next(2 * 1024, 24 * 1024 + 1)];
            random.NextBytes(content);
            entries.Add(new CpkTestWriter.NamedEntry($"dir{i / 500:D2}", $"file{i:D5}.dds", content));
        }
        _archive = Path.Combine(_folder, "large.cpk");
        File.WriteAllBytes(_archive, CpkTestWriter.WriteNamed(entries));

        // The mod's files, as a mirroring mod ships them: every tenth entry, a different size from the original's.
        for (int i = 0; i < Entries; i += ReplaceEvery)
        {
            var name = $"{entries[i].DirName}/{entries[i].FileName}";
            var content = new byte[random.Next(2 * 1024, 24 * 1024 + 1)];
            random.NextBytes(content);
            var path = Path.Combine(_folder, "mod", name);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllBytes(path, content);
            _loose[name] = path;
        }
    }

    [Benchmark]
    public long Build()
    {
        var index = CpkFormat.Instance.ReadIndex(_archive);
        var changes = _loose.Select(pair => new EntryChange(EntryKey.ByName(pair.Key), EntryInput.FromFile(pair.Value), "mod"));
        using var archive = CpkFormat.Instance.Build(index, new ArchivePatch(changes));
        return archive.File.Length;
    }

    [Benchmark(Baseline = true)]
    public long Rewrite()
    {
        // The entries' names and places come from the product's index (a rewriting tool has its own reader; reading
        // the TOC is a small share of the work), their bytes from the CPK and the loose files.
        var index = CpkFormat.Instance.ReadIndex(_archive);
        var entries = new List<CpkTestWriter.NamedEntry>(index.Entries.Count);
        using (var original = File.OpenHandle(_archive))
        {
            foreach (var entry in index.Entries)
            {
                var name = entry.Name!;
                byte[] content;
                if (_loose.TryGetValue(name, out var loose))
                    content = File.ReadAllBytes(loose);
                else
                {
                    content = new byte[entry.Size];
                    RandomAccess.Read(original, content, entry.Offset);
                }
                int slash = name.LastIndexOf('/');
                entries.Add(new CpkTestWriter.NamedEntry(name[..slash], name[(slash + 1)..], content));
            }
        }
        var output = Path.Combine(_folder, "rewritten.cpk");
        using (var stream = new FileStream(output, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            stream.Write(CpkTestWriter.WriteNamed(entries));
            stream.Flush();
        }
        return new FileInfo(output).Length;
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_folder, recursive: true);
}
