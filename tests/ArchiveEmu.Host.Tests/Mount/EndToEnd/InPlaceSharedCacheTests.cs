using System.Text.Json;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 32: the cache names an archive by the game folder's own path however the host reads it, so a <c>build</c> and an
/// in-place mount (which reads the originals through <c>/proc/self/fd/N</c>) of one game share one entry per archive.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class InPlaceSharedCacheTests(string fuse)
{
    private SampleGame _game = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireTransport(fuse);
        _game = new SampleGame();
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    [Test]
    public void ABuildThenAnInPlaceMount_ShareOneEntryPerArchive_NamedByTheGameFolder_AndTheMountReadsTheBuildsMergedCopy()
    {
        var build = Cli("build", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache, "--merge", "always");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        var built = Entries();
        Assert.That(built.Select(e => e.Route), Is.EquivalentTo(new[] { "data/bundle.tar", "data/data.cpk", "data/textures.afs" }
            .Select(r => $"{_game.Game}/{r}")), "one entry per modded archive, named by the game folder");

        using (var host = _game.StartInPlace(fuse, "always"))
        {
            File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"));
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
            Assert.That(host.Output, Does.Contain("built data/textures.afs: merged, from cache"), "the build's merged copy, not a second one");
            Assert.That(host.Output, Does.Not.Contain("packed now"));
        }
        Assert.That(Entries(), Is.EquivalentTo(built), "the mount wrote no entry of its own");
    }

    [Test]
    public void AnInPlaceMount_ReadsTheOriginalsABuildsStoredLayoutNames_ThroughItsHandle()
    {
        var original = _game.CopyGame("original");
        var build = Cli("build", "--game", _game.Game, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache, "--merge", "never");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        var built = Entries();

        using (var host = _game.StartInPlace(fuse, "never"))
        {
            // The layout names the game's own path, which is the mount now: read through it, this would never return.
            _game.AssertServes("data/textures.afs", Path.Combine(_game.Game, "data/textures.afs"), original);
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
            Assert.That(host.Output, Does.Contain("built data/textures.afs: emulated, layout from cache"), host.Output);
        }
        Assert.That(Entries(), Is.EquivalentTo(built), "the mount wrote no entry of its own");
    }

    private List<(string Key, string Route)> Entries()
    {
        var ls = Cli("cache", "ls", "--cache", _game.Cache, "--json");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        using var doc = JsonDocument.Parse(ls.StdOut);
        return doc.RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => (e.GetProperty("key").GetString()!, e.GetProperty("route").GetString()!)).ToList();
    }

    private static ToolResult Cli(params string[] args) =>
        ExternalTool.Run("dotnet", ["exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), .. args]);
}
