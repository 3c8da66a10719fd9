using System.Security.Cryptography;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 21 on the committed sample game: fixtures/game/data/data.cpk (written by fixtures/make_fixtures.py, field/sky.dds
/// stored CRILAYLA-compressed) and hd-textures' data/data.cpk/battle/hero.dds, built and re-read by the independent reader.
/// </summary>
public sealed class SampleCpkTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private static readonly string[] Paths = ["battle/enemy.dds", "battle/hero.dds", "field/grass.dds", "field/sky.dds"];
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-sample-cpk");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void TheFixtureCpk_ReadsIndependently_WithOneEntryStoredCompressed()
    {
        var original = CpkIndependentReader.Read(Path.Combine(Game, "data/data.cpk"));
        Assert.That(original.Kind, Is.EqualTo("named"));
        Assert.That(original.Alignment, Is.EqualTo(0x800));
        Assert.That(original.Entries.Select(e => e.Path), Is.EqualTo(Paths));
        Assert.That(original.Entries.Select(e => e.Compressed), Is.EqualTo(new[] { false, false, false, true }));
        var sky = original.Entries[3];
        Assert.That(sky.FileSize, Is.LessThan(sky.ExtractSize));
        Assert.That(sky.StoredSha256, Is.Not.EqualTo(sky.ContentSha256), "the reader decoded the CRILAYLA stream");
    }

    [Test]
    public void BuildMerge_ThenCat_TheModsEntryIsTheModFile_EveryOtherIsTheOriginals()
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", Game, "--mod", Hd, "--cache", cache, "--merge", "always");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain("data/data.cpk  (cpk)\n  entries    1 replaced, 0 added, 0 deleted"), build.Out);

        var original = CpkIndependentReader.Read(Path.Combine(Game, "data/data.cpk"));
        var mod = File.ReadAllBytes(Path.Combine(Hd, "data/data.cpk/battle/hero.dds"));
        foreach (var cacheArgs in new[] { new[] { "--cache", cache }, ["--no-cache"] })
        {
            var built = CpkIndependentReader.Read(Cat(cacheArgs));
            Assert.That(built.Entries.Select(e => e.Path), Is.EqualTo(Paths));
            Assert.That(built.Entries.Select(e => e.ContentSha256), Is.EqualTo(new[]
                { original.Entries[0].ContentSha256, Sha(mod), original.Entries[2].ContentSha256, original.Entries[3].ContentSha256 }));
            Assert.That(built.Entries[1].FileSize, Is.EqualTo(mod.Length));
            Assert.That(built.Entries[1].Compressed, Is.False);
            Assert.That(built.Entries[3].Compressed, Is.True, "the compressed entry no mod touches stays the original's stream");
            Assert.That(built.Entries[3].StoredSha256, Is.EqualTo(original.Entries[3].StoredSha256));
        }
    }

    private string Cat(string[] cacheArgs)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.cpk"];
        var cat = CliRun.Run(["cat", "--game", Game, "--mod", Hd, .. cacheArgs, "data/data.cpk", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return output;
    }

    private static string Sha(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
