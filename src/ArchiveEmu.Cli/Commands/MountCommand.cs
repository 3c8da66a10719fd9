namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu mount</c>: serves the modded game folder read-only at MOUNTPOINT until Ctrl+C/SIGTERM. It runs
/// the ArchiveEmu host in this process (one code path, one set of options), translating its arguments into
/// the host's configuration keys.
/// </summary>
internal sealed class MountCommand : ICommand
{
    public string Name => "mount";
    public string Usage => "archiveemu mount --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] [--merge auto|always|never] "
        + "[--log-level Debug|Information|Warning] MOUNTPOINT";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, ["game", "mod", "cache", "merge", "log-level"], ["no-cache"]);
        var mountPoint = cl.SinglePositional("MOUNTPOINT");
        var mods = cl.All("mod");
        if (mods.Count == 0)
            throw new UsageException("missing --mod (give at least one mod folder)");
        if (cl.Flag("no-cache") && cl.Value("cache") is not null)
            throw new UsageException("--cache and --no-cache contradict each other");
        if (cl.Value("merge") is { } merge && merge is not ("auto" or "always" or "never"))
            throw new UsageException($"--merge takes auto, always or never, not '{merge}'");

        var hostArgs = new List<string>
        {
            $"--ArchiveEmu:Game={Path.GetFullPath(cl.Required("game"))}",
            $"--ArchiveEmu:MountPoint={Path.GetFullPath(mountPoint)}",
        };
        for (int i = 0; i < mods.Count; i++)
            hostArgs.Add($"--ArchiveEmu:Mods:{i}={Path.GetFullPath(mods[i])}");
        if (cl.Value("cache") is { } cache)
            hostArgs.Add($"--ArchiveEmu:Cache={Path.GetFullPath(cache)}");
        if (cl.Flag("no-cache"))
            hostArgs.Add("--ArchiveEmu:NoCache=true");
        if (cl.Value("merge") is { } policy)
            hostArgs.Add($"--ArchiveEmu:Merge={policy}");
        if (cl.Value("log-level") is { } level)
            hostArgs.Add($"--Serilog:MinimumLevel:Default={level}");
        return Host.MountHost.Run(hostArgs.ToArray());
    }
}
