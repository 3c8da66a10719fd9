using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Txd;
using ArchiveEmu.TestSupport.Textures;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Issue 22's build benchmark for TXD: a texture dictionary of 512 Direct3D 9 textures (DXT1 and DXT5, 64–256 pixels a
/// side, full mip chains, about 20 MB) with 10% of them replaced by DDS files. <c>Build</c> is what ArchiveEmu does (read
/// and validate the dictionary, read each DDS header, rebuild the replaced natives' headers and the dictionary's, lay out
/// the segment map); <c>Rewrite</c> is what a user does without it: read every texture (the originals from the TXD, the
/// replacements' levels from the DDS files) and write a whole new TXD with the independent test writer, to the page
/// cache (no fsync). Both run warm.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 10)]
[MemoryDiagnoser]
public class TxdBuildVersusRewriteBenchmarks
{
    private const int Textures = 512;
    private const int ReplaceEvery = 10;
    private string _folder = "";
    private string _archive = "";
    private Dictionary<string, string> _loose = new(StringComparer.OrdinalIgnoreCase);

    [GlobalSetup]
    public void Setup()
    {
        _folder = Path.Combine(Path.GetTempPath(), $"archiveemu-bench-txd-{Environment.ProcessId}");
        Directory.CreateDirectory(_folder);
        var random = new Random(22);
        var textures = new List<TxdTestWriter.Texture>(Textures);
        for (int i = 0; i < Textures; i++)
        {
            var (format, side) = Pick(random);
            textures.Add(TxdTestWriter.Texture.Create(9, $"tex{i:D3}", "", format, side, side, TextureLevels.FullChain(side, side), seed: i + 1));
        }
        _archive = Path.Combine(_folder, "large.txd");
        File.WriteAllBytes(_archive, TxdTestWriter.Write(textures));

        // The mod's DDS files, as a texture mod ships them: every tenth texture, at a different size from the original's.
        Directory.CreateDirectory(Path.Combine(_folder, "mod"));
        for (int i = 0; i < Textures; i += ReplaceEvery)
        {
            var (format, side) = Pick(random);
            var path = Path.Combine(_folder, "mod", $"tex{i:D3}.dds");
            File.WriteAllBytes(path, DdsTestWriter.Write(format, side, side, TextureLevels.FullChain(side, side), seed: 10_000 + i));
            _loose[$"tex{i:D3}.dds"] = path;
        }
    }

    private static (TextureFormat, int) Pick(Random random) =>
        (random.Next(2) == 0 ? TextureFormat.Dxt1 : TextureFormat.Dxt5, 64 << random.Next(3));

    [Benchmark]
    public long Build()
    {
        var index = TxdFormat.Instance.ReadIndex(_archive);
        var changes = _loose.Select(pair => new EntryChange(EntryKey.ByName(pair.Key), EntryInput.FromFile(pair.Value), "mod"));
        using var archive = TxdFormat.Instance.Build(index, new ArchivePatch(changes));
        return archive.File.Length;
    }

    [Benchmark(Baseline = true)]
    public long Rewrite()
    {
        // A rewriting tool reads the whole dictionary (here with the independent reader) and every replacement's levels.
        var original = TxdIndependentReader.Read(File.ReadAllBytes(_archive));
        var textures = new List<TxdTestWriter.Texture>(original.Textures.Count);
        foreach (var t in original.Textures)
        {
            var texture = new TxdTestWriter.Texture(t.Platform, t.Name, t.Mask, t.Format, t.Width, t.Height, t.Levels, t.FilterMode, t.UAddressing, t.VAddressing);
            if (_loose.TryGetValue(t.Name + ".dds", out var loose))
            {
                var dds = DdsIndependentReader.Read(File.ReadAllBytes(loose));
                texture = texture with { Format = dds.Format, Width = dds.Width, Height = dds.Height, Levels = dds.Levels };
            }
            textures.Add(texture);
        }
        var output = Path.Combine(_folder, "rewritten.txd");
        using (var stream = new FileStream(output, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            stream.Write(TxdTestWriter.Write(textures, original.DeviceId, original.LibraryId));
            stream.Flush();
        }
        return new FileInfo(output).Length;
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_folder, recursive: true);
}
