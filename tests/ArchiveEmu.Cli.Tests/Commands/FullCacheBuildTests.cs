using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48: <c>build --merge always</c> with the cache on a full file system stopped with ".NET" wording ("No space left
/// on device : '…/00000001.pack'", exit 1). Now every archive is built and served by emulation, with one warning naming the
/// cache's file system, in stderr and in <c>--json</c>'s warnings; nothing half-written is left in the cache.
/// </summary>
public sealed class FullCacheBuildTests
{
    [Test]
    public void BuildMergeAlways_OnAFullCacheDisk_GoesOnByEmulation_AndSaysSoOnce()
    {
        using var full = FullFolder.Create();
        using var dir = new TempDirectory("cli-fullcache");
        var cache = Path.Combine(full.Folder, "cache");
        string[] game = ["--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--mod", CliRun.Fixture("mods/ui-fix")];

        var built = CliRun.Run(["build", .. game, "--merge", "always", "--cache", cache, "--json"]);

        Assert.That(built.ExitCode, Is.Zero, built.ToString());
        using var json = JsonDocument.Parse(built.Out);
        var archives = json.RootElement.GetProperty("archives").EnumerateArray().ToList();
        Assert.That(archives.Select(a => a.GetProperty("strategy").GetString()).Distinct(), Is.EqualTo(new[] { "emulated" }), built.Out);
        Assert.That(archives, Has.Count.EqualTo(2));
        var warnings = json.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()!).ToList();
        Assert.That(warnings.Count(w => w.Contains("is full")), Is.EqualTo(1), built.ToString());
        Assert.That(warnings.Single(w => w.Contains("is full")), Does.StartWith($"{cache}: the cache's file system (tmpfs"));
        Assert.That(Directory.GetFiles(cache, "*", SearchOption.AllDirectories).Where(f => f.Contains("/packs/")).Sum(f => new FileInfo(f).Length), Is.Zero,
            "no pack holds a half-written blob");

        var cat = CliRun.Run(["cat", .. game, "--cache", cache, "data/textures.afs", "-o", dir["served.afs"]]);
        var plain = CliRun.Run(["cat", .. game, "--no-cache", "data/textures.afs", "-o", dir["plain.afs"]]);
        Assert.That((cat.ExitCode, plain.ExitCode), Is.EqualTo((0, 0)), cat.ToString());
        Assert.That(File.ReadAllBytes(dir["served.afs"]), Is.EqualTo(File.ReadAllBytes(dir["plain.afs"])));
    }
}
