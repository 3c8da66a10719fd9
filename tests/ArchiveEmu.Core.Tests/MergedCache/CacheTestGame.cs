using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// A generated game folder (an AFS and a tar archive) with two mods, in a temp folder the test may
/// change, plus a cache folder; warnings the cache raises are collected.
/// </summary>
internal sealed class CacheTestGame : IDisposable
{
    private readonly TempDirectory _dir = new("cache");

    public CacheTestGame(int entries = 24, int entrySize = 20_000)
    {
        var originals = Enumerable.Range(0, entries).Select(i => (byte[]?)TestData.Random(100 + i, entrySize + i * 37)).ToArray();
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write(originals));
        ExternalTool.Python("""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    for i in range(12):
        data = bytes((i * 7 + j) % 251 for j in range(3000 + i * 100))
        info = tarfile.TarInfo('m/%02d.bin' % i); info.size = len(data); info.mtime = 1000000
        t.addfile(info, io.BytesIO(data))
""", _dir["game/data/pack.tar"]);
        _dir.Write("mods/a/data/tex.afs/3.dds", TestData.Random(1, 30_000));
        _dir.Write("mods/a/data/tex.afs/7_face.dds", TestData.Random(2, 5_000));
        _dir.Write("mods/a/data/pack.tar/m/04.bin", TestData.Random(3, 9_000));
        _dir.Write("mods/b/data/tex.afs/3.dds", TestData.Random(4, 12_345));
        _dir.Write("mods/b/data/tex.afs/30.dds", TestData.Random(5, 777));
        _dir.Write("mods/b/data/pack.tar/new/added.bin", TestData.Random(6, 2_000));
        CacheFolder = _dir["cache"];
    }

    public string GameFolder => _dir["game"];
    public string CacheFolder { get; }
    public string this[string relative] => _dir[relative];
    public List<string> Warnings { get; } = new();
    public string[] Mods { get; set; } = ["a", "b"];

    public MergedFileCache Cache(int chunkSize = 16 * 1024) =>
        new(CacheFolder, new CacheOptions(chunkSize, TimeSpan.FromSeconds(30), Warnings.Add));

    /// <summary>The game as routed now (routing again picks up changed mod folders).</summary>
    public EmulatedGame Game(MergedFileCache? cache = null, bool verifyContent = false) =>
        new(new ModRouter(GameFolder, Mods.Select(m => _dir["mods/" + m]).ToArray()).Resolve())
        {
            Cache = cache,
            VerifyContent = verifyContent,
        };

    /// <summary>Builds every routed archive and stores it, merged or not.</summary>
    public void BuildAll(MergedFileCache cache, bool merge, ChunkCompression compression = ChunkCompression.Lz4, bool verifyContent = false)
    {
        var game = Game(cache, verifyContent);
        foreach (var route in game.Plan.Archives)
        {
            using var archive = game.Build(route);
            cache.Store(game.KeyOf(route), archive, merge, compression);
        }
    }

    public static byte[] ReadAll(VirtualFile file)
    {
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>The archive's bytes by emulation alone, the reference every cached read is compared with.</summary>
    public byte[] Emulated(string relative)
    {
        using var file = Game().OpenFile(relative);
        return ReadAll(file);
    }

    public void Dispose() => _dir.Dispose();
}
