using System.CommandLine;
using ArchiveEmu.Cli.Options;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu mount</c>: serves the modded game folder read-only at MOUNTPOINT, or with <c>--in-place</c> over the game
/// folder itself, until Ctrl+C/SIGTERM. It runs the ArchiveEmu host in this process (<see cref="MountArguments"/>).
/// </summary>
internal sealed class MountCommand : ICommand
{
    private readonly MountArguments _mount = new();
    private readonly Argument<string?> _mountPoint = new("MOUNTPOINT")
    {
        Description = "An empty folder to serve the modded game folder at (none with --in-place)",
        Arity = ArgumentArity.ZeroOrOne,
    };
    private readonly Option<bool> _inPlace = new("--in-place")
    {
        Description = "Mount over the game folder itself, where the game (and Steam's container) looks; the originals stay underneath, unchanged",
    };

    public string Name => "mount";
    public string Usage => $"archiveemu mount {MountArguments.Usage} (MOUNTPOINT | --in-place)";

    public Command Define(CliConsole console)
    {
        var command = _mount.AddTo(new Command(Name, "Serve the modded game folder read-only at MOUNTPOINT, or over the game folder with --in-place, until Ctrl+C"));
        command.Arguments.Add(_mountPoint);
        command.Options.Add(_inPlace);
        command.Validate(result => (result.GetValue(_inPlace), result.GetValue(_mountPoint) is not null) switch
        {
            (true, true) => "--in-place mounts over the game folder itself: give no MOUNTPOINT with it",
            (false, false) => "missing MOUNTPOINT (or --in-place to mount over the game folder itself)",
            _ => null,
        });
        return command.Runs(parse => Host.MountHost.Run(_mount.Request(parse, console, parse.GetValue(_inPlace) ? null : parse.GetValue(_mountPoint)), whileMounted: null));
    }
}
