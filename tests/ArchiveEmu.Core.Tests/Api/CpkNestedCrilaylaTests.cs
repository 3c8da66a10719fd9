using ArchiveEmu.Core.Tests.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 21, nested: an AFS stored CRILAYLA-compressed in a named CPK (`data/data.cpk/sound/se.afs/1.bin`) is decoded once
/// (into the cache folder, or a private file without one) and served uncompressed with the mod's entry in it; checked by the
/// independent CPK reader (its own CRILAYLA decoder) and the independent AFS reader.
/// </summary>
public sealed class CpkNestedCrilaylaTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame() => _dir = new TempDirectory("api-cpk-crilayla");

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [TestCase(true)]
    [TestCase(false)]
    public void ModFileInsideACompressedAfs_IsServedInTheAfs_StoredUncompressed(bool withCache)
    {
        var inner = new[] { CpkTestFiles.Compressible(20, 3000), CpkTestFiles.Compressible(21, 5000), CpkTestFiles.Compressible(22, 700) };
        var afs = AfsTestWriter.Write(inner);
        var entries = new List<CpkTestWriter.NamedEntry>
        {
            new("battle", "tex.dds", TestData.Random(1, 3000)),
            new("sound", "se.afs", afs, Compress: true),
        };
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed(entries));
        Assert.That(CpkIndependentReader.Read(_dir["game/data/data.cpk"]).Entries[1].FileSize, Is.LessThan(afs.Length), "stored compressed");
        var mod = _dir.Write("mod/data/data.cpk/sound/se.afs/1.bin", TestData.Random(23, 4321));

        using var emulator = new ArchiveEmulator(_dir["game"], new ArchiveEmulatorOptions { CacheFolder = withCache ? _dir["cache"] : null });
        emulator.AddModFolder(_dir["mod"]);
        using (var file = emulator.Open("data/data.cpk"))
        {
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            _dir.Write("out.cpk", bytes);
        }

        var cpk = CpkIndependentReader.Read(_dir["out.cpk"]);
        Assert.That(cpk.Entries.Select(e => e.Path), Is.EqualTo(new[] { "battle/tex.dds", "sound/se.afs" }));
        Assert.That(cpk.Entries[0].ContentSha256, Is.EqualTo(CpkTestFiles.Sha(entries[0].Content)));
        var se = cpk.Entries[1];
        Assert.That(se.FileSize, Is.EqualTo(se.ExtractSize), "the emulated inner archive is stored uncompressed");
        var seBytes = File.ReadAllBytes(_dir["out.cpk"]).AsSpan((int)se.Offset, (int)se.FileSize).ToArray();
        _dir.Write("se.afs", seBytes);
        Assert.That(AfsIndependentReader.Read(_dir["se.afs"]).Select(e => e.Sha256),
            Is.EqualTo(new[] { inner[0], File.ReadAllBytes(mod), inner[2] }.Select(AfsIndependentReader.Sha256)));
        Assert.That(Directory.Exists(Path.Combine(_dir["cache"], "decoded")), Is.EqualTo(withCache), "decoded into the cache folder only when there is one");
    }
}
