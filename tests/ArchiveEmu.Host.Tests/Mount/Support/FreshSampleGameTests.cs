using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>Tests that each get a fresh copy of the sample game (<see cref="SampleGame"/>) where FUSE works, deleted after the test.</summary>
public abstract class FreshSampleGameTests
{
    private protected SampleGame _game = null!;

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _game = new SampleGame();
    }

    [TearDown]
    public void DeleteGame() => _game?.Dispose();
}
