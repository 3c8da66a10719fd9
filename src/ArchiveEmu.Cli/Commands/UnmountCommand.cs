using System.CommandLine;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu unmount DIR</c>: takes an ArchiveEmu mount off DIR — chiefly the dead one a killed host leaves ("Transport
/// endpoint is not connected"). Anything else mounted there is refused with one line.
/// </summary>
internal sealed class UnmountCommand : ICommand
{
    private readonly Argument<string> _folder = new("DIR") { Description = "Where the ArchiveEmu mount is (a mount point, or the game folder of an in-place mount)" };

    public string Name => "unmount";
    public string Usage => "archiveemu unmount DIR";

    public Command Define(CliConsole console)
    {
        var command = new Command(Name, "Unmount the ArchiveEmu mount at DIR, also a dead one left by a killed host");
        command.Arguments.Add(_folder);
        return command.Runs(parse => Host.MountHost.Unmount(parse.GetRequiredValue(_folder), console.Out, console.Error));
    }
}
