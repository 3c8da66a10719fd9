namespace ArchiveEmu.Host;

/// <summary>
/// The ArchiveEmu service: serves the modded game folder through a read-only FUSE mount until Ctrl+C or
/// SIGTERM. <c>dotnet run --project src/ArchiveEmu.Host -- --game DIR --ArchiveEmu:Mods:0=MOD --mount-point DIR</c>.
/// </summary>
public static class Program
{
    public static int Main(string[] args) => MountHost.Run(args);
}
