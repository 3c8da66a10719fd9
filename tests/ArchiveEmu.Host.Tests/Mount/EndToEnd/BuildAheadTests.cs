using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// The mount builds its targeted archives ahead, from the moment it is up, so the game's first stat or open of one does not wait
/// for the build (docs/DESIGN.md, "Host and the FUSE mount"); a slot still builds once, whoever asks first.
/// </summary>
[NonParallelizable]
public sealed class BuildAheadTests : FreshSampleGameTests
{
    [Test]
    public void EveryTargetedArchive_IsBuiltBeforeAnyoneAsks_AndOnlyOnce()
    {
        using var host = _game.StartMount("--merge", "never").WaitMounted();

        // Nothing in the mount is touched: the host builds both archives on its own.
        Assert.That(host.OutputOnce("built data/bundle.tar", TimeSpan.FromSeconds(20)), Does.Contain("built data/bundle.tar: emulated"));
        Assert.That(host.OutputOnce("built data/textures.afs", TimeSpan.FromSeconds(20)), Does.Contain("built data/textures.afs: emulated"));

        foreach (var file in new[] { "data/bundle.tar", "data/textures.afs" })
            _game.AssertServes(file, _game.Mounted(file));
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(5)), Is.Zero, host.Output);
        Assert.That(host.Output.Split("built data/bundle.tar").Length - 1, Is.EqualTo(1), "the reads used the archive built ahead:\n" + host.Output);
        Assert.That(host.Output.Split("built data/textures.afs").Length - 1, Is.EqualTo(1), host.Output);
    }
}
