using System.CommandLine;
using ArchiveEmu.Cli.Release;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu update [--check]</c>: replaces this program with the latest release's, verified, and prints what changed;
/// <c>--check</c> only says whether a newer one exists (exit 0: up to date, 10: newer available, 1: could not tell).
/// The release server is <c>ARCHIVEEMU_RELEASES</c>, else the one built in (docs/INSTALL.md, "Updating").
/// </summary>
internal sealed class UpdateCommand : ICommand
{
    private readonly Option<bool> _check = new("--check") { Description = "Only say whether a newer release exists (exit 0: no, 10: yes, 1: could not tell)" };

    public string Name => "update";
    public string Usage => "archiveemu update [--check]";

    public Command Define(CliConsole console)
    {
        var command = new Command(Name, "Replace this archiveemu with the latest release's, checked against its SHA256SUMS, and say what changed");
        command.Options.Add(_check);
        return command.Runs(parse =>
        {
            var installed = ReleaseVersion.TryParse(Program.Version)
                ?? throw new InvalidDataException($"this build's version '{Program.Version}' is not one a release can be compared with");
            var updater = new Updater(ReleaseServer.Configured(), installed, console.Out);
            return parse.GetValue(_check) ? updater.Check() : updater.Update(InstalledProgram(), MachineRid());
        });
    }

    /// <summary>The file this process runs from, when it is an archiveemu program an update can replace.</summary>
    private static string InstalledProgram()
    {
        var path = Environment.ProcessPath ?? throw new IOException("cannot tell which file this program runs from");
        return Path.GetFileNameWithoutExtension(path) == "archiveemu"
            ? path
            : throw new IOException($"this archiveemu runs under {path} (a build from the repository): update it with git pull and ./install.sh, or install a release (docs/INSTALL.md)");
    }

    private static string MachineRid() =>
        ReleaseServer.MachineRid()
        ?? throw new IOException(OperatingSystem.IsWindows()
            ? "on Windows, download the win-x64 zip of the latest release and unpack it over this folder (docs/INSTALL.md)"
            : $"no release is built for this machine ({System.Runtime.InteropServices.RuntimeInformation.OSArchitecture}); build it from the repository (docs/INSTALL.md)");
}
