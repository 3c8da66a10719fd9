using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// <c>build --merge</c> into a cache on a filesystem that fills up in the middle of a pack (a 1 MiB tmpfs): issue 48 made
/// this no error (it was exit 1, "No space left on device"): the archive is served by emulation, one warning names the
/// cache's file system, exit 0, the half-written blob is cut off the pack, and the cache still serves exactly the emulated
/// bytes. Needs root to mount the tmpfs; skipped otherwise.
/// </summary>
public sealed class DiskFullTests
{
    private TempDirectory _dir = null!;
    private string _small = "";

    [SetUp]
    public void MountSmallFilesystem()
    {
        _dir = new TempDirectory("diskfull");
        _small = Directory.CreateDirectory(_dir["small"]).FullName;
        CiMachine.RequireRoot("mount(8) of a size-limited tmpfs");
        var mount = ExternalTool.Run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", _small);
        CiMachine.Require(mount.ExitCode == 0 ? null : $"could not mount a tmpfs: {mount.StdErr.Trim()}");
    }

    [TearDown]
    public void Unmount()
    {
        ExternalTool.Run("/bin/umount", "-l", _small);
        _dir.Dispose();
    }

    [Test]
    public void PackWriteRunsOutOfSpace_OneWarning_TheBuildGoesOn_AndTheCacheStaysRight()
    {
        // 3 MiB of incompressible entries: the merged copy cannot fit in 1 MiB, the layout and index can.
        var entries = Enumerable.Range(0, 48).Select(i => (byte[]?)TestData.Random(i, 64 * 1024)).ToArray();
        _dir.Write("game/data/big.afs", AfsTestWriter.Write(entries));
        _dir.Write("game/data/small.afs", AfsTestWriter.Write([TestData.Random(100, 3000), TestData.Random(101, 3000)]));
        _dir.Write("mods/m/data/big.afs/3.bin", TestData.Random(200, 5000));
        _dir.Write("mods/m/data/small.afs/1.bin", TestData.Random(201, 700));
        string[] game = ["--game", _dir["game"], "--mod", _dir["mods/m"]];
        var cache = Path.Combine(_small, "cache");

        // First a cache that fits: small.afs merged.
        var first = CliRun.Run(["build", .. game, "--cache", cache, "--merge", "auto", "--max-archive-size", "1M", "--compress", "none"]);
        Assert.That(first.ExitCode, Is.Zero, first.ToString());

        var packs = Directory.GetFiles(Path.Combine(cache, "packs")).ToDictionary(f => f, f => new FileInfo(f).Length);
        var full = CliRun.Run(["build", .. game, "--cache", cache, "--merge", "always", "--compress", "none"]);
        Assert.That(full.ExitCode, Is.Zero, full.ToString());
        Assert.That(full.Out, Does.Contain("warning    " + cache + ": the cache's file system (tmpfs, ").And.Contain("data/big.afs and any other archive"), full.ToString());
        Assert.That(full.Out, Does.Match(@"data/big\.afs\s+emulated\s.*\sfull\s"), "the table says why it is not merged");
        Assert.That(Directory.GetFiles(Path.Combine(cache, "packs")).ToDictionary(f => f, f => new FileInfo(f).Length), Is.EqualTo(packs),
            "the half-written blob is cut off: the packs are as they were");

        foreach (var archive in new[] { "data/big.afs", "data/small.afs" })
        {
            var emulated = CliRun.Run(["cat", .. game, "--no-cache", archive, "-o", _dir["emulated.afs"]]);
            var cached = CliRun.Run(["cat", .. game, "--cache", cache, archive, "-o", _dir["cached.afs"]]);
            Assert.That((emulated.ExitCode, cached.ExitCode), Is.EqualTo((0, 0)), cached.ToString());
            Assert.That(File.ReadAllBytes(_dir["cached.afs"]), Is.EqualTo(File.ReadAllBytes(_dir["emulated.afs"])), archive);
            Assert.That(cached.Error, Is.Empty, "nothing damaged: the failed write never reached the index");
        }
        var verify = CliRun.Run(["cache", "verify", "--cache", cache]);
        Assert.That(verify.ExitCode, Is.Zero, verify.ToString());
    }

}
