using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18: <c>build</c> with a cache folder it cannot write said "Read-only file system : '…/lock'". Now one line names
/// the cache folder, what is wrong and the two ways out; <c>cat</c> and <c>ls</c>, which only read the cache, keep working.
/// The read-only folder is a read-only bind mount (root ignores permission bits), so the test needs Linux and root.
/// </summary>
public sealed class ReadOnlyCacheTests
{
    private TempDirectory _dir = null!;
    private string _readOnly = "";
    private ReadOnlyBindMount? _mount;

    [SetUp]
    public void MountReadOnly()
    {
        LinuxOnly.Require("a read-only bind mount");
        _dir = new TempDirectory("cli-rocache");
        _readOnly = Directory.CreateDirectory(_dir["ro"]).FullName;
        // A cache built while writable, then the same folder mounted read-only over itself.
        var built = CliRun.Run("build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--cache", Path.Combine(_readOnly, "cache"));
        Assert.That(built.ExitCode, Is.Zero, built.ToString());
        _mount = ReadOnlyBindMount.Over(_readOnly);
    }

    [TearDown]
    public void Unmount()
    {
        if (_dir is null)
            return;
        _mount?.Dispose();
        _mount = null;
        _dir.Dispose();
    }

    [Test]
    public void Build_ReadOnlyCache_OneLineNamingTheFolderAndTheTwoWaysOut()
    {
        foreach (var (cache, merge) in new[] { ("cache", false), ("new-cache", false), ("cache", true) })
        {
            var folder = Path.Combine(_readOnly, cache);
            string[] args = ["build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/ui-fix"), "--cache", folder, .. merge ? ["--merge"] : Array.Empty<string>()];
            var result = CliRun.Run(args);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            var ways = merge ? "give a writable folder with --cache DIR, or drop --merge and build with --no-cache"
                : "build with --no-cache, or give a writable folder with --cache DIR";
            Assert.That(result.Error, Is.EqualTo($"archiveemu build: {folder}: the cache folder is on a read-only file system; {ways}\n"), result.ToString());
        }
        Assert.That(Directory.Exists(Path.Combine(_readOnly, "new-cache")), Is.False);
    }

    [Test]
    public void CatAndLs_ReadOnlyCache_ServeTheSameBytesAsWithoutCache()
    {
        var folder = Path.Combine(_readOnly, "cache");
        foreach (var mod in new[] { "mods/hd-textures", "mods/ui-fix" }) // a hit and a miss
        {
            string[] game = ["--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture(mod)];
            var cached = CliRun.Run(["cat", .. game, "--cache", folder, "data/textures.afs", "-o", _dir["cached.afs"]]);
            var plain = CliRun.Run(["cat", .. game, "--no-cache", "data/textures.afs", "-o", _dir["plain.afs"]]);
            Assert.That((cached.ExitCode, cached.Error), Is.EqualTo((0, "")), cached.ToString());
            Assert.That(File.ReadAllBytes(_dir["cached.afs"]), Is.EqualTo(File.ReadAllBytes(_dir["plain.afs"])), mod);
            var ls = CliRun.Run(["ls", .. game, "--cache", folder, "data/textures.afs"]);
            Assert.That((ls.ExitCode, ls.Error), Is.EqualTo((0, "")), ls.ToString());
            Assert.That(ls.Out, Is.EqualTo(CliRun.Run(["ls", .. game, "--no-cache", "data/textures.afs"]).Out), mod);
        }
    }
}
