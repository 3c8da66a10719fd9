using System.Text.RegularExpressions;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// FUSE passthrough (our own protocol, as root, Linux 6.9+): the kernel reads the game's unmodified files and
/// merged archives from real files, so those reads never reach the host; a mod's file is still served by the host.
/// Whether the kernel offers passthrough is asked of the kernel (<see cref="KernelPassthroughProbe"/>), never of the
/// host's log: where the kernel offers it, a host that does not use it fails the test.
/// </summary>
[NonParallelizable]
public sealed class PassthroughTests
{
    private SampleGame _game = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        CiMachine.RequireRoot("passthrough needs the host's own FUSE protocol, which mounts with mount(2) as root");
        _game = new SampleGame();
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();

    [Test]
    public void MergedArchivesAndGameFiles_ArePassedThrough_AModsFileIsNot_AndEveryByteIsRight()
    {
        var kernel = KernelPassthroughProbe.Ask();
        CiMachine.Require(kernel.Offered is null ? $"whether this kernel offers FUSE passthrough: {kernel.Reason}" : null);
        if (kernel.Offered == false)
            Assert.Ignore($"this kernel does not offer FUSE passthrough: {kernel.Reason}");

        var output = ReadEverythingThenStop("--ArchiveEmu:Passthrough=true");
        Assert.That(output, Does.Contain("FUSE protocol, passthrough on"), $"the kernel offers passthrough ({kernel.Reason}), the host did not use it:\n{output}");

        foreach (var file in new[] { "data/textures.afs", "data/bundle.tar", "data/ui.zip", "data/voice.afs" })
            Assert.That(output, Does.Match($@"open {Regex.Escape(file)}: passthrough \(backing file \d+\)"), file);
        Assert.That(output, Does.Contain("open data/readme.txt: served by the host")); // the ui-fix mod's file
        Assert.That(output, Does.Not.Contain("open data/textures.afs: served by the host"));
        Assert.That(output, Does.Match(@"read statistics data/textures\.afs: \d+ opens, 0 reads, 0 B served"), output);
    }

    [Test]
    public void PassthroughOff_TheHostServesTheSameBytes_AndCountsTheReads()
    {
        var output = ReadEverythingThenStop("--ArchiveEmu:Passthrough=false");
        Assert.That(output, Does.Contain("FUSE protocol, passthrough off"));
        Assert.That(output, Does.Not.Contain(": passthrough ("));
        Assert.That(output, Does.Match(@"read statistics data/textures\.afs: \d+ opens, [1-9]\d* reads"), output);
    }

    // Reads every file twice (second time after the first handles closed) and checks the bytes; returns the host's log.
    private string ReadEverythingThenStop(string passthrough)
    {
        using var host = HostProcess.StartHost(_game.MountPoint,
            _game.HostArgs("always", "--ArchiveEmu:Fuse=kernel", passthrough, "--Serilog:MinimumLevel:Default=Debug")).WaitMounted();
        for (int pass = 0; pass < 2; pass++)
            foreach (var file in _game.VisibleFiles)
                _game.AssertServes(file, _game.Mounted(file));
        // The copies the kernel reads merged archives from have no name: nothing is left in the cache folder.
        Assert.That(Directory.GetFiles(_game.Cache, "*.tmp", SearchOption.AllDirectories), Is.Empty);
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
        return host.Output;
    }
}
