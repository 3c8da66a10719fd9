using ArchiveEmu.Host.Fuse;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Fuse;

/// <summary>
/// Issue 49: the machine's checks a mount needs are one list (<see cref="MountReadiness"/>) that the host's pre-mount check and
/// doctor both read; here on a made-up machine, which stops a mount and with which line.
/// </summary>
public sealed class MountReadinessTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("the checks open /dev/fuse through libc");
        _dir = new TempDirectory("mount-readiness");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private FuseMachine Bare(bool root) => new(_dir["dev/fuse"], _dir["empty-bin"], root, "6.1.0", "libfuse3-not-here.so.3");

    [Test]
    public void ANormalUserWithNothing_IsStoppedByTheDeviceFirst_ThenFusermount_LibfuseAndPassthroughOnlyFacts()
    {
        var checks = MountReadiness.Of(Bare(root: false)).ToList();

        Assert.That(checks.Select(c => (c.Name, c.Outcome, c.Stops)), Is.EqualTo(new[]
        {
            ("/dev/fuse", ReadinessOutcome.Fail, true), ("fusermount3", ReadinessOutcome.Fail, true),
            ("libfuse3", ReadinessOutcome.Fact, false), ("kernel passthrough", ReadinessOutcome.Fact, false),
        }));
        Assert.That(checks.First(c => c.Stops).Line, Is.EqualTo($"{_dir["dev/fuse"]} is missing (no fuse kernel module, or a container started "
            + "without the device); load the module (sudo modprobe fuse); in a container, start it with --device /dev/fuse"));
    }

    [Test]
    public void Libfuse_StopsAMount_OnlyWhereTheMountSpeaksThroughIt()
    {
        var root = Bare(root: true) with { DevFuse = "/dev/null" }; // a device that opens read-write
        Assert.That(MountReadiness.Of(root).Where(c => c.Stops), Is.Empty);
        Assert.That(MountReadiness.Of(root).Select(c => c.Name), Has.No.Member("libfuse3"), "as root the host never needs it");

        var stops = MountReadiness.Of(root, libFuseNeeded: true).Single(c => c.Stops);
        Assert.That((stops.Name, stops.Line), Is.EqualTo(("libfuse3", Host.Fuse.LibFuse.Unavailable("libfuse3-not-here.so.3"))));
    }
}
