using System.CommandLine;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu run … -- COMMAND [ARGS…]</c>: mounts the modded game over the game folder itself (as <c>mount --in-place</c>),
/// runs COMMAND once the mount is ready (<see cref="ChildProgram"/>), and unmounts when it exits; the exit code is COMMAND's.
/// For Steam's launch options: <c>archiveemu run --game "$PWD" --mod DIR -- %command%</c>.
/// </summary>
internal sealed class RunCommand : ICommand
{
    private readonly MountArguments _mount = new(run: true);
    private readonly Argument<string[]> _command = new("COMMAND")
    {
        Description = "The program to run with the game folder modded, and its arguments (after --)",
        Arity = ArgumentArity.OneOrMore,
    };
    // Taken and ignored: run always mounts over the game folder, and a player who writes the flag out (as for mount) is right.
    private readonly Option<bool> _inPlace = new("--in-place") { Description = "Implied: run always mounts over the game folder itself" };

    public string Name => "run";
    public string Usage => $"archiveemu run {MountArguments.Usage} -- COMMAND [ARGS…]";

    public Command Define(CliConsole console)
    {
        var command = _mount.AddTo(new Command(Name, "Mount the modded game over the game folder, run COMMAND, unmount when it exits"));
        command.Options.Add(_inPlace);
        command.Arguments.Add(_command);
        return command.Runs(parse =>
        {
            var hostArgs = _mount.HostArgs(parse, console, mountPoint: null);
            if (!OperatingSystem.IsLinux())
                throw new IOException("run mounts the game folder through FUSE, which needs Linux");
            var program = parse.GetRequiredValue(_command);
            using var child = new ChildProgram(); // from here Ctrl+C and SIGTERM are the child's, also while mounting
            return Host.MountHost.Run(hostArgs, () => child.Run(program, console.Error));
        });
    }
}
