namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// The archiveemu doctor runs as: its version and where it runs from, so a player with two copies sees which one answered, and
/// the file a Steam launch option names to start this copy.
/// </summary>
/// <param name="Version">Its version (<c>--version</c>).</param>
/// <param name="ProcessPath">The running program (<see cref="Environment.ProcessPath"/>): archiveemu itself, or dotnet for a build.</param>
/// <param name="Assembly">Under dotnet, the archiveemu.dll it runs; null for the program itself.</param>
internal sealed record RunningArchiveEmu(string Version, string ProcessPath, string? Assembly)
{
    /// <summary>This process.</summary>
    public static RunningArchiveEmu Current()
    {
        var process = Environment.ProcessPath ?? "archiveemu";
        // AppContext.BaseDirectory, not Assembly.Location: the latter is empty in the NativeAOT program (and warned of there).
        return Path.GetFileNameWithoutExtension(process) == "dotnet"
            ? new(Program.Version, process, Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"))
            : new(Program.Version, process, null);
    }

    /// <summary>The file a launch option names to start this copy: the program, or for a build the apphost the SDK writes beside the dll.</summary>
    public string LaunchPath => Assembly is null ? ProcessPath : Path.Combine(Path.GetDirectoryName(Assembly)!, "archiveemu");

    /// <summary>The line that says which archiveemu this is: its version and where it runs from.</summary>
    public DoctorCheck Check() => DoctorCheck.Fact("archiveemu", Assembly is null
        ? $"{Version} from {ProcessPath}"
        : $"{Version} from a build ({ProcessPath} {Assembly})");
}
