using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// <c>build --merge</c> into a cache on a filesystem that fills up (a 1 MiB tmpfs): one clear error, exit 1, and
/// the cache it leaves still serves exactly the emulated bytes. Needs root to mount the tmpfs; skipped otherwise.
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
    public void PackWriteRunsOutOfSpace_OneClearError_AndTheCacheStaysRight()
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

        var full = CliRun.Run(["build", .. game, "--cache", cache, "--merge", "always", "--compress", "none"]);
        Assert.That(full.ExitCode, Is.EqualTo(1), full.ToString());
        var lines = full.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines, Has.Length.EqualTo(1), full.Error);
        Assert.That(lines[0], Does.Contain("No space left on device").And.Contain(cache));

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
