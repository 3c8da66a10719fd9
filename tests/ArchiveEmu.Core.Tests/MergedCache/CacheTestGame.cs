using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// A generated game folder (one archive per format: AFS, tar, AWB, IMG, PAK, ZIP) with two mods, in a temp folder the test may
/// change, plus a cache folder; warnings the cache raises are collected.
/// </summary>
internal sealed class CacheTestGame : IDisposable
{
    private readonly TempDirectory _dir = new("cache");

    /// <param name="entryBytes">The tex.afs entries' bytes from (seed, length); random (LZ4 leaves them raw) unless given.</param>
    public CacheTestGame(int entries = 24, int entrySize = 20_000, Func<int, int, byte[]>? entryBytes = null)
    {
        entryBytes ??= TestData.Random;
        var originals = Enumerable.Range(0, entries).Select(i => (byte[]?)entryBytes(100 + i, entrySize + i * 37)).ToArray();
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write(originals));
        if (OperatingSystem.IsWindows()) // no python3 there: the same entries from .NET's tar writer
            DotNetArchiveWriters.WriteTar(_dir["game/data/pack.tar"], Enumerable.Range(0, 12)
                .Select(i => ($"m/{i:00}.bin", Enumerable.Range(0, 3000 + i * 100).Select(j => (byte)((i * 7 + j) % 251)).ToArray()))
                .ToArray());
        else
            ExternalTool.Python("""
import tarfile, io, sys
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    for i in range(12):
        data = bytes((i * 7 + j) % 251 for j in range(3000 + i * 100))
        info = tarfile.TarInfo('m/%02d.bin' % i); info.size = len(data); info.mtime = 1000000
        t.addfile(info, io.BytesIO(data))
""", _dir["game/data/pack.tar"]);
        WriteOtherFormats();
        _dir.Write("mods/a/data/tex.afs/3.dds", TestData.Random(1, 30_000));
        _dir.Write("mods/a/data/tex.afs/7_face.dds", TestData.Random(2, 5_000));
        _dir.Write("mods/a/data/pack.tar/m/04.bin", TestData.Random(3, 9_000));
        _dir.Write("mods/b/data/tex.afs/3.dds", TestData.Random(4, 12_345));
        _dir.Write("mods/b/data/tex.afs/30.dds", TestData.Random(5, 777));
        _dir.Write("mods/b/data/pack.tar/new/added.bin", TestData.Random(6, 2_000));
        CacheFolder = _dir["cache"];
    }

    /// <summary>Every generated archive, one per format, each touched by at least one mod.</summary>
    public static readonly string[] Archives =
        ["data/tex.afs", "data/pack.tar", "data/voice.awb", "data/gta3.img", "data/model.pak", "data/ui.zip"];

    // AWB, IMG and PAK from the test writers, ZIP from Python's zipfile (one deflated, one stored entry); each mod
    // replaces, adds or deletes something in them so the cached bytes differ from the originals.
    private void WriteOtherFormats()
    {
        _dir.Write("game/data/voice.awb", AwbTestWriter.Write(Enumerable.Range(0, 6).Select(i => (byte[]?)TestData.Random(200 + i, 4_000 + i * 11)).ToArray()));
        _dir.Write("game/data/gta3.img", ImgTestWriter.Write(Enumerable.Range(0, 5).Select(i => ($"e{i}.dff", TestData.Random(300 + i, 2_048 * (i + 1)))).ToArray()));
        _dir.Write("game/data/model.pak", PakTestWriter.Write(PakTestLayout.All[2], Enumerable.Range(0, 5).Select(i => ($"m{i}.bin", TestData.Random(400 + i, 1_000 + i * 3))).ToArray()));
        if (OperatingSystem.IsWindows())
            DotNetArchiveWriters.WriteZip(_dir["game/data/ui.zip"],
                ("ui/a.txt", DotNetArchiveWriters.Repeat("hello "u8.ToArray(), 2000), true),
                ("ui/b.bin", DotNetArchiveWriters.Repeat(Enumerable.Range(0, 256).Select(i => (byte)i).ToArray(), 40), false));
        else
            ExternalTool.Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr(zipfile.ZipInfo('ui/a.txt', (2020, 1, 1, 0, 0, 0)), b'hello ' * 2000, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr(zipfile.ZipInfo('ui/b.bin', (2020, 1, 1, 0, 0, 0)), bytes(range(256)) * 40, compress_type=zipfile.ZIP_STORED)
""", _dir["game/data/ui.zip"]);
        _dir.Write("mods/a/data/voice.awb/2.hca", TestData.Random(7, 6_001));
        _dir.Write("mods/b/data/voice.awb/8.hca", TestData.Random(8, 333));
        _dir.Write("mods/a/data/gta3.img/E1.DFF", TestData.Random(9, 5_000));
        _dir.Write("mods/b/data/gta3.img/new.txd", TestData.Random(10, 100));
        _dir.Write("mods/a/data/model.pak/m3.bin", TestData.Random(11, 2_222));
        _dir.Write("mods/b/data/model.pak/m0.bin.del", []);
        _dir.Write("mods/a/data/ui.zip/ui/a.txt", TestData.Random(12, 4_321));
        _dir.Write("mods/b/data/ui.zip/ui/c.dds", TestData.Random(13, 1_234));
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
        EmulatedGame.Open(new GameSetup(GameFolder, Mods.Select(m => _dir["mods/" + m]).ToArray())
        {
            Cache = cache,
            VerifyContent = verifyContent,
        });

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

    /// <summary>Damages one byte of a cache file in place (XOR 0x5A), as a bad sector or a stray write would.</summary>
    public static void FlipByte(string path, long offset)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        int b = stream.ReadByte();
        stream.Position = offset;
        stream.WriteByte((byte)(b ^ 0x5A));
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
