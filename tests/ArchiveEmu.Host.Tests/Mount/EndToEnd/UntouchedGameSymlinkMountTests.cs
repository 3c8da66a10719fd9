using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 17 as reported: no mod touches a linked file, so the mount starts, lists the link's target size, and must
/// then read the target's bytes (passed through as root) rather than answer EIO.
/// </summary>
[NonParallelizable]
public sealed class UntouchedGameSymlinkMountTests
{
    [Test]
    public void ArchiveemuMount_UntouchedFilesBehindSymlinks_ReadAsTheirTargets()
    {
        LinuxOnly.RequireSymlinks();
        LibFuseProbe.RequireFuse();
        using var game = new SampleGame();
        game.MoveDataBehindSymlinks();
        var noMod = Directory.CreateDirectory(Path.Combine(game.Root, "mods", "empty")).FullName;
        using var host = HostProcess.StartCli(game.MountPoint, "mount", "--game", game.Game, "--mod", noMod,
            "--no-cache", game.MountPoint).WaitMounted();
        foreach (var (file, target) in new[] { ("data/voice.afs", "voice.afs"), ("movies/intro.zip", "movies/intro.zip"), ("movies/notes.txt", "movies/notes.txt") })
        {
            var expected = File.ReadAllBytes(Path.Combine(game.SecondDisk, target));
            Assert.That(new FileInfo(game.Mounted(file)).Length, Is.EqualTo(expected.Length), file);
            Assert.That(File.ReadAllBytes(game.Mounted(file)), Is.EqualTo(expected), file);
        }
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
    }
}
