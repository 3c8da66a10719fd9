using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// Issue 18: the writer lock retried every IOException for its whole wait, so a read-only or missing cache folder stalled a
/// writer two minutes, then blamed "another archiveemu process". Now only a lock another process holds is waited for (said
/// once, when the wait starts); anything else fails at once naming the folder.
/// </summary>
[NonParallelizable]
public sealed class CacheWriterLockTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(5); // the old code waits all of it on any error
    private TempDirectory _dir = null!;
    private CacheTestGame? _game; // disposed after the read-only mount is gone
    private ReadOnlyBindMount? _readOnly;

    [SetUp]
    public void CreateFolder()
    {
        _dir = new TempDirectory("lock");
        _game = null;
        _readOnly = null;
    }

    [TearDown]
    public void CleanUp()
    {
        _readOnly?.Dispose();
        _game?.Dispose();
        _dir?.Dispose();
    }

    [Test]
    public void Acquire_ReadOnlyFileSystem_FailsAtOnce_NamingTheFolder()
    {
        var folder = ReadOnlyFolder(withLockFile: true);
        var said = new List<string>();
        Assert.That(() => CacheWriterLock.Acquire(folder, Patience, said.Add), Throws.InstanceOf<IOException>()
            .With.Message.EqualTo($"{folder}: the cache folder is on a read-only file system; nothing can be stored in it"));
        Assert.That(said, Is.Empty, "no wait started: the lock says when one does");
    }

    [Test]
    public void Store_ReadOnlyCacheFolder_FailsAtOnce_WithoutWarningOfAWait()
    {
        var game = _game = new CacheTestGame(entries: 4, entrySize: 1000);
        var cache = game.Cache();
        game.BuildAll(cache, merge: false); // a cache folder with its lock file, then made read-only
        var folder = ReadOnlyFolder(withLockFile: false, game.CacheFolder);
        var impatient = new MergedFileCache(folder, new CacheOptions(LockTimeout: Patience, Warn: game.Warnings.Add));
        var play = game.Game(impatient);
        var route = play.Plan.FindArchive("data/tex.afs")!;
        using var archive = play.Build(route);
        Assert.That(() => impatient.Store(play.KeyOf(route), archive, merge: true, ChunkCompression.Lz4), Throws.InstanceOf<IOException>()
            .With.Message.EqualTo($"{folder}: the cache folder is on a read-only file system; nothing can be stored in it"));
        Assert.That(game.Warnings, Is.Empty, "no wait started: the lock warns when one does");
    }

    [Test]
    public void TwoWritersOfOneProcess_TheSecondWaitsForTheFirst_WithoutSayingAnotherProcessHoldsIt()
    {
        var folder = _dir["cache"];
        Directory.CreateDirectory(folder);
        var said = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var order = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var first = CacheWriterLock.Acquire(folder, Patience, said.Enqueue);
        Assert.That(Task.Run(() => CacheWriterLock.TryAcquire(folder, TimeSpan.Zero, said.Enqueue)).Result, Is.Null,
            "one writer at a time, within a process too");
        CacheWriterLock? taken = null;
        var second = new Thread(() =>
        {
            taken = CacheWriterLock.Acquire(folder, Patience, said.Enqueue);
            order.Enqueue("second acquired");
        });
        second.Start();
        // Released only once the second writer is blocked waiting for it: the order below then says the lock held it back.
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while ((second.ThreadState & System.Threading.ThreadState.WaitSleepJoin) == 0 && order.IsEmpty)
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline), "the second writer neither waited nor got the lock");
            Thread.Yield();
        }

        order.Enqueue("first released");
        first.Dispose();
        second.Join();
        using (taken) // got it once the first let go
        {
            Assert.That(order, Is.EqualTo(new[] { "first released", "second acquired" }));
            Assert.That(said, Is.Empty, "a mount's two threads are no other process");
        }
        using var third = CacheWriterLock.TryAcquire(folder, TimeSpan.Zero);
        Assert.That(third, Is.Not.Null, "released by both");
    }

    [Test]
    public void Acquire_FolderMissing_FailsAtOnce_NamingTheFolder()
    {
        var folder = _dir["gone"];
        var said = new List<string>();
        Assert.That(() => CacheWriterLock.Acquire(folder, Patience, said.Add), Throws.InstanceOf<IOException>()
            .With.Message.EqualTo($"{folder}: the cache folder does not exist; nothing can be stored in it"));
        Assert.That(said, Is.Empty, "no wait started: the lock says when one does");
    }

    [Test]
    public void Store_LockHeldByAnotherWriter_SaysOnceThatItWaits_ThenGivesUpNamingTheLock()
    {
        var game = _game = new CacheTestGame(entries: 4, entrySize: 1000);
        var warnings = new List<string>();
        var impatient = new MergedFileCache(game.CacheFolder, new CacheOptions(LockTimeout: TimeSpan.FromMilliseconds(600), Warn: warnings.Add));
        var play = game.Game(impatient);
        var route = play.Plan.FindArchive("data/tex.afs")!;
        using var archive = play.Build(route);
        var lockPath = Path.Combine(Directory.CreateDirectory(game.CacheFolder).FullName, "lock");
        using (new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None)) // another writer, as archiveemu holds it
            Assert.That(() => impatient.Store(play.KeyOf(route), archive, merge: false, ChunkCompression.Lz4),
                Throws.InstanceOf<IOException>().With.Message.Contains("another archiveemu process"));
        Assert.That(warnings, Is.EqualTo(new[]
        {
            $"{lockPath}: another archiveemu process is writing this cache; waiting up to 1 s for it to finish",
        }));
    }

    /// <summary>A folder mounted read-only over itself (root ignores permission bits); the caller's folder, or a new one.</summary>
    private string ReadOnlyFolder(bool withLockFile, string? existing = null)
    {
        LinuxOnly.Require("a read-only bind mount");
        var folder = existing ?? Directory.CreateDirectory(_dir["ro"]).FullName;
        if (withLockFile)
            File.WriteAllBytes(Path.Combine(folder, "lock"), []); // the two-minute case: the lock file exists, opening it for writing fails
        _readOnly = ReadOnlyBindMount.Over(folder);
        return folder;
    }
}
