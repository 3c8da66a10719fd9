using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19: <c>archiveemu unmount</c> and <c>mount --in-place</c> take off only ArchiveEmu's mounts; a dead FUSE mount of
/// another file system and a tmpfs are refused in one line and left alone. No ArchiveEmu host runs here, so once, not per
/// transport; mounting them by hand needs root.
/// </summary>
[NonParallelizable]
public sealed class ForeignMountRefusalTests
{
    private SampleGame _game = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        CiMachine.RequireRoot("mounting a foreign FUSE file system or a tmpfs to refuse needs mount(2)");
        _game = new SampleGame();
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    private static ToolResult Cli(params string[] args) =>
        ArchiveEmuProgram.Run(args);

    /// <summary>A dead FUSE mount of another file system on <paramref name="folder"/>: mounted by hand, its /dev/fuse closed at once.</summary>
    private static unsafe void LeaveADeadForeignFuseMount(string folder)
    {
        int fd = Core.Interop.LibC.Open("/dev/fuse", Host.Interop.LibC.O_RDWR | Host.Interop.LibC.O_CLOEXEC);
        Assert.That(fd, Is.GreaterThanOrEqualTo(0), "open /dev/fuse");
        int mounted;
        fixed (byte* source = Host.Interop.LibC.Utf8Z("otherfs"))
        fixed (byte* target = Host.Interop.LibC.Utf8Z(folder))
        fixed (byte* type = Host.Interop.LibC.Utf8Z("fuse.otherfs"))
        fixed (byte* data = Host.Interop.LibC.Utf8Z($"fd={fd},rootmode=40000,user_id=0,group_id=0"))
            mounted = Host.Interop.LibC.Mount(source, target, type, 1, data);
        Core.Interop.LibC.Close(fd); // no server: the connection ends, the mount is dead
        Assert.That(mounted, Is.Zero, "mount(2) of the foreign FUSE file system");
    }

    [Test]
    public void ADeadFuseMountThatIsNotArchiveEmus_IsRefusedByMountInPlaceAndByUnmount_AndLeftAlone()
    {
        LeaveADeadForeignFuseMount(_game.Game);
        try
        {
            Assert.That(LibFuseProbe.IsDeadMount(_game.Game), Is.True);
            // Not through HostProcess: its clean-up would take the foreign mount off.
            var mount = Cli("mount", "--game", _game.Game, "--mod", _game.Mods[0], "--no-cache", "--in-place");
            Assert.That(mount.ExitCode, Is.EqualTo(1), mount.ToString());
            Assert.That(mount.StdOut, Does.Contain($"{_game.Game}: a dead mount that is not ArchiveEmu's is there (type fuse.otherfs, source otherfs)"));
            var result = Cli("unmount", _game.Game);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.StdErr.TrimEnd(), Is.EqualTo(
                $"archiveemu unmount: {_game.Game}: the mount there is not ArchiveEmu's (type fuse.otherfs, source otherfs); refusing to unmount it"));
            Assert.That(MountPointState.Find(_game.Game)?.FileSystemType, Is.EqualTo("fuse.otherfs"), "left alone");
        }
        finally
        {
            ExternalTool.Run("umount", "-l", _game.Game);
        }
        Assert.That(MountPointState.IsMounted(_game.Game), Is.False);
    }

    [Test]
    public void Unmount_ATmpfs_IsRefusedWithOneLine_AndStaysMounted()
    {
        var mount = ExternalTool.Run("mount", "-t", "tmpfs", "-o", "size=1m", "archiveemu-test", _game.MountPoint);
        Assert.That(mount.ExitCode, Is.Zero, mount.ToString());
        try
        {
            var result = Cli("unmount", _game.MountPoint);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.StdErr.TrimEnd(), Is.EqualTo(
                $"archiveemu unmount: {_game.MountPoint}: the mount there is not ArchiveEmu's (type tmpfs, source archiveemu-test); refusing to unmount it"));
            Assert.That(MountPointState.IsMounted(_game.MountPoint), Is.True);
        }
        finally
        {
            ExternalTool.Run("umount", _game.MountPoint);
        }
    }
}
