using System.Text.Json;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 32: <c>mount --cache-max-size</c>: once the mount has built its archives ahead, the cache's own gc removes the least
/// recently used entries until the packs fit, never one the mount serves.
/// </summary>
[NonParallelizable]
public sealed class MountCacheCapTests : FreshSampleGameTests
{
    [Test]
    public void OverTheCap_AnotherGamesEntriesGo_AndTheMountsOwnStay()
    {
        var other = _game.CopyGame("other-game");
        var build = Cli("build", "--game", other, "--mod", _game.Mods[0], "--mod", _game.Mods[1], "--cache", _game.Cache);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());

        using (var host = _game.StartMount("--merge", "never", "--cache-max-size", "1").WaitMounted())
        {
            var output = host.OutputOnce("cache over", TimeSpan.FromSeconds(30));
            Assert.That(output, Does.Contain("cache over 1 B: removed 3 least recently used entries and 0 unused or damaged, kept 3; packs "), output);
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
        }
        Assert.That(Routes(), Is.EqualTo(new[] { "data/bundle.tar", "data/data.cpk", "data/textures.afs" }.Select(r => $"{_game.Game}/{r}")),
            "the mounted game's entries, in use while it ran");
        Assert.That(Directory.EnumerateFiles(Path.Combine(_game.Cache, "live")), Is.Empty, "the mount's record of use ended with it");
    }

    private string[] Routes()
    {
        var ls = Cli("cache", "ls", "--cache", _game.Cache, "--json");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        using var doc = JsonDocument.Parse(ls.StdOut);
        return doc.RootElement.GetProperty("entries").EnumerateArray().Select(e => e.GetProperty("route").GetString()!).Order(StringComparer.Ordinal).ToArray();
    }

    private static ToolResult Cli(params string[] args) =>
        ExternalTool.Run("dotnet", ["exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), .. args]);
}
