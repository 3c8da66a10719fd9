using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 48, "An original that changes under a live mount" (a game update while mounted, at another mount point): without
/// a clone every new open got EIO until the next mount, though the log said "reopen for the new version"; with a passthrough
/// copy the old version was served silently. Now the open sees the original's new identity (no watcher on the game folder),
/// resolves the mods again, and serves the archive rebuilt from the new original; a handle opened before keeps its version
/// or gets EIO, never a mix.
/// </summary>
[NonParallelizable]
public sealed class OriginalChangedTests : FreshSampleGameTests
{
    [TestCase("never")]
    [TestCase("always")]
    public void TheGamesArchiveReplacedWhileMounted_ANewOpenServesItRebuilt_AnOldHandleNeverMixes(string merge)
    {
        using var host = HostProcess.StartHost(_game.MountPoint, _game.HostArgs(merge)).WaitMounted();
        const string afs = "data/textures.afs";
        var before = File.ReadAllBytes(_game.Mounted(afs));
        _game.AssertServes(afs, before);
        using var old = new FileStream(_game.Mounted(afs), FileMode.Open, FileAccess.Read, FileShare.Read, 1);
        var head = new byte[1024]; // before entry 0: the rest of this handle spans the bytes the update changes
        old.ReadExactly(head);

        // A game update as Steam writes one: a new file renamed over the old. Entry 0 (at 2048), which no mod replaces, changes.
        var original = Path.Combine(_game.Game, afs);
        var updated = File.ReadAllBytes(original);
        TestData.Random(480, 1000).CopyTo(updated, 2048);
        File.WriteAllBytes(original + ".new", updated);
        File.Move(original + ".new", original, overwrite: true);

        var after = File.ReadAllBytes(_game.Mounted(afs)); // at once: the open itself sees the change
        _game.AssertServes(afs, after);
        Assert.That(after.AsSpan(2048, 1000).ToArray(), Is.EqualTo(TestData.Random(480, 1000)), "entry 0 is the updated original's");
        Assert.That(host.Output, Does.Contain($"{afs}: the game's file changed since it was mounted"), host.Output);
        Assert.That(host.Output, Does.Contain("hot reload: 1 archive(s)"), host.Output);

        var rest = new MemoryStream();
        try
        {
            old.CopyTo(rest);
            Assert.That(rest.ToArray(), Is.EqualTo(before[1024..]), "the old handle reads its own version to the end");
        }
        catch (IOException)
        {
            Assert.That(before[1024..].AsSpan().StartsWith(rest.ToArray()), "bytes read before the error are the old version's");
        }
    }
}
