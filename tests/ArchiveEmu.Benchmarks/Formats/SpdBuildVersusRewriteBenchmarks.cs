using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport.Textures;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Issue 22's build benchmark: an Atlus SPD of 512 textures (128×128 DXT5 DDS files with their mipmaps, about 11 MB) and 1,024
/// sprites, with 10% of the textures replaced by loose <c>tex_&lt;id&gt;.dds</c> files. <c>Build</c> is what ArchiveEmu does
/// (read and validate the header and tables, read each mod DDS's header, rebuild the tables, lay out the segment map);
/// <c>Rewrite</c> is what a user does without it: read every texture (from the SPD, or the mod's file for a replaced one) and
/// write a whole new SPD with the independent test writer, to the page cache (flushed to the OS, no fsync). Both run warm.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 10)]
[MemoryDiagnoser]
public class SpdBuildVersusRewriteBenchmarks
{
    private const int Textures = 512;
    private const int ReplaceEvery = 10;
    private string _folder = "";
    private string _archive = "";
    private readonly Dictionary<int, string> _loose = [];
    private readonly List<SpdTestWriter.Sprite> _sprites = [];

    private static IArchiveFormat Spd => ArchiveFormats.ByName("spd")!;

    [GlobalSetup]
    public void Setup()
    {
        _folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-spd-{Environment.ProcessId}");
        Directory.CreateDirectory(_folder);
        var textures = new List<SpdTestWriter.Texture>(Textures);
        for (int id = 0; id < Textures; id++)
        {
            textures.Add(new SpdTestWriter.Texture(id, DdsTestWriter.Write(TextureFormat.Dxt5, 128, 128, TextureLevels.FullChain(128, 128), seed: id), $"t{id}"));
            _sprites.Add(new SpdTestWriter.Sprite(2 * id, id, 0, 0, 64, 64));
            _sprites.Add(new SpdTestWriter.Sprite(2 * id + 1, id, 64, 64, 64, 64));
        }
        _archive = Path.Combine(_folder, "large.spd");
        File.WriteAllBytes(_archive, SpdTestWriter.Write(textures, _sprites));

        // The mod's files, as FEF mods ship them: every tenth texture, redrawn.
        Directory.CreateDirectory(Path.Combine(_folder, "mod"));
        for (int id = 0; id < Textures; id += ReplaceEvery)
        {
            var path = Path.Combine(_folder, "mod", $"tex_{id}.dds");
            File.WriteAllBytes(path, DdsTestWriter.Write(TextureFormat.Dxt5, 128, 128, TextureLevels.FullChain(128, 128), seed: 10_000 + id));
            _loose[id] = path;
        }
    }

    [Benchmark]
    public long Build()
    {
        var index = Spd.ReadIndex(_archive);
        var changes = _loose.Select(pair => new EntryChange(EntryKey.ByName($"tex_{pair.Key}.dds"), EntryInput.FromFile(pair.Value), "mod"));
        using var archive = Spd.Build(index, new ArchivePatch(changes));
        return archive.File.Length;
    }

    [Benchmark(Baseline = true)]
    public long Rewrite()
    {
        // The textures' IDs and places come from the product's index (a rewriting tool has its own reader; reading the
        // tables is a small share of the work), their bytes from the SPD and the loose files; replaced in place.
        var index = Spd.ReadIndex(_archive);
        var textures = new List<SpdTestWriter.Texture>(Textures);
        using (var original = File.OpenHandle(_archive))
        {
            foreach (var entry in index.Entries.Where(e => e.Name!.StartsWith("tex_", StringComparison.Ordinal)))
            {
                int id = int.Parse(entry.Name!.AsSpan(4, entry.Name!.Length - 8), System.Globalization.CultureInfo.InvariantCulture);
                byte[] content;
                if (_loose.TryGetValue(id, out var loose))
                    content = File.ReadAllBytes(loose);
                else
                {
                    content = new byte[entry.Size];
                    RandomAccess.Read(original, content, entry.Offset);
                }
                textures.Add(new SpdTestWriter.Texture(id, content, $"t{id}"));
            }
        }
        var output = Path.Combine(_folder, "rewritten.spd");
        using (var stream = new FileStream(output, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            stream.Write(SpdTestWriter.Write(textures, _sprites));
            stream.Flush();
        }
        return new FileInfo(output).Length;
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_folder, recursive: true);
}
