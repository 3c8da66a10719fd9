using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// One mount of a <see cref="SampleGame"/> shared by a fixture's tests: made and mounted once before them, unmounted and deleted
/// after them, also when a test or the mount itself failed. A fixture says what differs: the transport and merge policy,
/// what it adds to the game or its mods before mounting (<see cref="Prepare"/>), extra host arguments (<see cref="ExtraHostArgs"/>),
/// or another way to start the mount (<see cref="Start"/>).
/// </summary>
public abstract class SampleGameMountFixture(string fuse, string merge = "never")
{
    private protected readonly string Fuse = fuse;
    private protected readonly string Merge = merge;
    private protected SampleGame _game = null!;
    private protected HostProcess _host = null!;

    [OneTimeSetUp]
    public void MountSampleGame()
    {
        LinuxOnly.Require("a FUSE mount");
        LibFuseProbe.RequireTransport(Fuse);
        _game = new SampleGame();
        Prepare(_game);
        _host = Start(_game).WaitMounted();
    }

    [OneTimeTearDown]
    public void UnmountSampleGame()
    {
        _host?.Dispose();
        _game?.Dispose();
    }

    /// <summary>Changes the game or its mods before the mount starts; nothing by default.</summary>
    private protected virtual void Prepare(SampleGame game)
    {
    }

    /// <summary>Host arguments after the game's own (<see cref="SampleGame.HostArgs"/>) and the transport.</summary>
    private protected virtual string[] ExtraHostArgs(SampleGame game) => [];

    /// <summary>Starts the mount, not waiting: by default the host with the game's arguments, <see cref="Merge"/> and <see cref="Fuse"/>.</summary>
    private protected virtual HostProcess Start(SampleGame game) =>
        HostProcess.StartHost(game.MountPoint, game.HostArgs(Merge, [$"--ArchiveEmu:Fuse={Fuse}", .. ExtraHostArgs(game)]));
}
