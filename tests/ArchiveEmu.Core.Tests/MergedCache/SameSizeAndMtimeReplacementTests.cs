using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// Issue 17: a file replaced with new bytes of the same size under the same mtime — what `cp -p`, `touch -r` and
/// `rsync -t` leave — is a cache miss that serves the new bytes, without --verify-content; nothing changed is a hit.
/// </summary>
public sealed class SameSizeAndMtimeReplacementTests
{
    private const string Archive = "data/tex.afs";
    private const string Original = "game/data/tex.afs";
    private const string Input = "mods/a/data/tex.afs/7_face.dds"; // mod a's, not overridden by b
    private CacheTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new CacheTestGame();

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    [TestCase(Original)]
    [TestCase(Input)]
    public void ReplacedByCpP_IsAMiss_AndServesTheNewBytes(string target)
    {
        LinuxOnly.Require("cp -p (coreutils)");
        AssertReplacementIsAMiss(target, (path, bytes) =>
        {
            // cp -p over an existing file rewrites it in place (same inode) and sets the source's mtime on it.
            var staging = _game["staging.bin"];
            File.WriteAllBytes(staging, bytes);
            File.SetLastWriteTimeUtc(staging, File.GetLastWriteTimeUtc(path));
            Run("cp", "-p", staging, path);
        });
    }

    [TestCase(Original)]
    [TestCase(Input)]
    public void RewrittenThenTouchR_IsAMiss_AndServesTheNewBytes(string target)
    {
        LinuxOnly.Require("touch -r (coreutils)");
        AssertReplacementIsAMiss(target, (path, bytes) =>
        {
            var reference = _game["reference.bin"];
            File.WriteAllBytes(reference, []);
            Run("touch", "-r", path, reference); // keep the old mtime aside
            File.WriteAllBytes(path, bytes);
            Run("touch", "-r", reference, path); // and put it back
        });
    }

    [TestCase(Original)]
    [TestCase(Input)]
    public void ReplacedRsyncStyle_ByRenameWithTheOldMtime_IsAMiss_AndServesTheNewBytes(string target)
    {
        AssertReplacementIsAMiss(target, (path, bytes) =>
        {
            // What rsync -t does: a temp file beside the target, its mtime set to the source's, renamed over the target.
            var temp = Path.Combine(Path.GetDirectoryName(path)!, "." + Path.GetFileName(path) + ".Xa1b2c");
            File.WriteAllBytes(temp, bytes);
            File.SetLastWriteTimeUtc(temp, File.GetLastWriteTimeUtc(path));
            File.Move(temp, path, overwrite: true);
        });
    }

    [Test]
    public void NothingChanged_ReadAgain_IsAHit_ServedFromThePack()
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        foreach (var path in Directory.EnumerateFiles(_game.GameFolder, "*", SearchOption.AllDirectories)
                     .Concat(Directory.EnumerateFiles(_game["mods"], "*", SearchOption.AllDirectories)))
            File.ReadAllBytes(path); // reads may move atime: it is no part of the key

        foreach (var archive in CacheTestGame.Archives)
        {
            var game = _game.Game(cache);
            Assert.That(cache.Find(game.KeyOf(game.Plan.FindArchive(archive)!)), Is.Not.Null, archive);
            using var file = game.OpenFile(archive);
            Assert.That(file.Segments[0].Source.Describe(), Does.StartWith("merged cache"), archive);
            Assert.That(CacheTestGame.ReadAll(file), Is.EqualTo(_game.Emulated(archive)), archive);
        }
        Assert.That(_game.Warnings, Is.Empty);
    }

    private void AssertReplacementIsAMiss(string target, Action<string, byte[]> replace)
    {
        var cache = _game.Cache();
        _game.BuildAll(cache, merge: true);
        var before = _game.Emulated(Archive);
        var path = _game[target];
        var old = new FileInfo(path);
        var (length, mtime) = (old.Length, old.LastWriteTimeUtc);
        var bytes = File.ReadAllBytes(path);
        bytes[4096] ^= 0xFF; // the original: inside entry 0, which no mod replaces; the input: inside the file

        replace(path, bytes);

        var now = new FileInfo(path);
        Assert.That((now.Length, now.LastWriteTimeUtc), Is.EqualTo((length, mtime)), "same size and mtime after the replacement");
        Assert.That(File.ReadAllBytes(path), Is.EqualTo(bytes), "the new bytes are in place");
        var game = _game.Game(cache);
        Assert.That(cache.Find(game.KeyOf(game.Plan.FindArchive(Archive)!)), Is.Null, "a miss");
        using var file = game.OpenFile(Archive);
        var served = CacheTestGame.ReadAll(file);
        Assert.That(served, Is.EqualTo(_game.Emulated(Archive)));
        Assert.That(served, Is.Not.EqualTo(before), "the new bytes, not the cached ones");
    }

    private static void Run(string tool, params string[] args)
    {
        var result = ExternalTool.Run(tool, args);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
    }
}
