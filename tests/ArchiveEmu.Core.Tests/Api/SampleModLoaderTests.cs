using ArchiveEmu.Core.Formats;
using ArchiveEmu.Sample.ModLoader;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>docs/API.md's sample mod loader, run on the fixtures' sample game and checked with the independent AFS reader.</summary>
public sealed class SampleModLoaderTests
{
    [Test]
    public void TextureInjector_InjectsTheHdTexturesIntoTheFixtureArchive()
    {
        var root = RepositoryFiles.Fixture("");
        var textures = Path.Combine(root, "mods/hd-textures/data/textures.afs");
        using var dir = new TempDirectory("sample");
        var output = dir["textures.afs"];
        var log = new StringWriter();

        var entries = TextureInjector.Inject(Path.Combine(root, "game"), "data/textures.afs", textures, output, log);

        var original = AfsIndependentReader.Read(Path.Combine(root, "game/data/textures.afs"));
        var built = AfsIndependentReader.Read(output);
        string Sha(string file) => AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(textures, file)));
        var expected = original.Select(e => e.Sha256).ToList();
        expected[3] = Sha("3.dds");
        expected[5] = Sha("0005_hero.dds");
        expected.Add(AfsIndependentReader.Sha256([])); // slot 8, grown through
        expected.Add(Sha("9.dds"));
        Assert.That(built.Select(e => e.Sha256), Is.EqualTo(expected));
        Assert.That(entries.Where(e => e.Origin == "sample-loader").Select(e => e.Index), Is.EqualTo(new[] { 3, 5, 8, 9 }));
        Assert.That(entries[3].State, Is.EqualTo(EntryState.Replaced));
        Assert.That(log.ToString(), Does.Contain("changed: data/textures.afs (InputAdded)").And.Contain("sample-loader"));
    }
}
