using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// A scenario on disk: the game folder with the original AFS, the mod folder with the injected DDS files,
/// <c>solid.bin</c> (the emulated bytes written once to one plain file) and two merged file caches holding
/// the archive raw and LZ4-compressed. Everything lives under <see cref="Folder"/>; disposing deletes it.
/// </summary>
internal sealed class ScenarioFiles : IDisposable
{
    private ScenarioFiles(BenchScenario scenario, string folder)
    {
        Scenario = scenario;
        Folder = folder;
    }

    public BenchScenario Scenario { get; }
    public string Folder { get; }
    public string GameFolder => Path.Combine(Folder, "game");
    public string ModFolder => Path.Combine(Folder, "mod");
    public string ArchivePath => $"data/{Scenario.ArchiveFileName}";
    public string OriginalPath => Path.Combine(GameFolder, ArchivePath);
    public string SolidPath => Path.Combine(Folder, "solid.bin");
    public string RawCacheFolder => Path.Combine(Folder, "cache-raw");
    public string Lz4CacheFolder => Path.Combine(Folder, "cache-lz4");

    /// <summary>The emulated archive's size in bytes.</summary>
    public long Length { get; private set; }

    /// <summary>Files the archive's bytes come from (original and loose files).</summary>
    public int SourceFiles { get; private set; }

    public static ScenarioFiles Generate(BenchScenario scenario, string parent, Action<string> status)
    {
        var files = new ScenarioFiles(scenario, Path.Combine(parent, scenario.Name));
        try
        {
            files.WriteGameAndMod(status);
            files.WriteSolidAndCaches(status);
            PageCache.SyncAll(); // every generated page written back: a later DONTNEED leaves nothing cached
            return files;
        }
        catch
        {
            files.Dispose();
            throw;
        }
    }

    private void WriteGameAndMod(Action<string> status)
    {
        var entries = Path.Combine(ModFolder, "data", Scenario.ArchiveFileName);
        Directory.CreateDirectory(Path.GetDirectoryName(OriginalPath)!);
        Directory.CreateDirectory(entries);
        using var writer = new AfsOriginalWriter(OriginalPath, Scenario.EntryCount);
        for (int i = 0; i < Scenario.EntryCount; i++)
        {
            if (i % 64 == 0)
                status($"generating textures {i}/{Scenario.EntryCount}");
            ulong kind = (ulong)(i & 1); // odd entries DXT5, even DXT1
            writer.Append(DdsTexture.Create(Scenario.TextureBytes, ((ulong)i << 8) | kind));
            if (Scenario.IsInjected(i))
                File.WriteAllBytes(Path.Combine(entries, $"{i:D4}.dds"), DdsTexture.Create(Scenario.TextureBytes, ((ulong)i << 8) | 0x80 | kind));
        }
    }

    private void WriteSolidAndCaches(Action<string> status)
    {
        status("writing solid.bin");
        var game = OpenGame(null);
        var route = game.Plan.FindArchive(ArchivePath) ?? throw new InvalidOperationException("the scenario's mod does not target its archive");
        using (var emulated = game.OpenFile(ArchivePath))
        using (var solid = new FileStream(SolidPath, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 20))
        {
            Length = emulated.Length;
            SourceFiles = emulated.Files.Count();
            var buffer = new byte[1 << 20];
            for (long at = 0; at < emulated.Length;)
            {
                int n = emulated.Read(at, buffer);
                solid.Write(buffer, 0, n);
                at += n;
            }
        }
        foreach (var (folder, compression) in new[] { (RawCacheFolder, ChunkCompression.None), (Lz4CacheFolder, ChunkCompression.Lz4) })
        {
            status($"merging into {Path.GetFileName(folder)}");
            OpenGame(folder).Serve(route, new ServeRequest { Merge = MergePolicy.Always, Compression = compression });
        }
    }

    /// <summary>A game view of this scenario: emulation only, or served from one of the merged caches.</summary>
    public EmulatedGame OpenGame(string? cacheFolder, Core.VirtualFiles.FileHandlePool? pool = null) =>
        EmulatedGame.Open(new GameSetup(GameFolder, [ModFolder]) { Cache = cacheFolder is null ? null : new MergedFileCache(cacheFolder), Pool = pool });

    /// <summary>Every file the read paths may touch, for dropping their pages before a cold run.</summary>
    public IEnumerable<string> AllFiles() => Directory.EnumerateFiles(Folder, "*", SearchOption.AllDirectories);

    public void Dispose()
    {
        if (Directory.Exists(Folder))
            Directory.Delete(Folder, recursive: true);
    }
}
