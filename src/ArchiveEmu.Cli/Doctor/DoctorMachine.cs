using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// The facts about this machine the checks read, in one place so a test can point them elsewhere (a /dev/fuse that is
/// missing, a PATH without fusermount3) where it cannot change the machine itself.
/// </summary>
/// <param name="DevFuse">The FUSE device.</param>
/// <param name="SearchPath">PATH, as programs are looked up in it.</param>
/// <param name="IsRoot">Whether this process has root's rights (the host then mounts through mount(2) and may use passthrough).</param>
/// <param name="KernelRelease">The running kernel's release (<c>uname -r</c>).</param>
/// <param name="LibFuse">The libfuse3 library's name, as the host loads it.</param>
/// <param name="Home">The user's home folder.</param>
/// <param name="Environment">Reads an environment variable (the Steam container's settings).</param>
internal sealed record DoctorMachine(string DevFuse, string SearchPath, bool IsRoot, string KernelRelease, string LibFuse, string Home,
    Func<string, string?> Environment)
{
    /// <summary>The folders Steam's container always shares for temporary files (/var/tmp: whenever it shares the home folder, the default).</summary>
    public IReadOnlyList<string> SharedTempFolders { get; init; } = ["/tmp", "/var/tmp"];

    /// <summary>The archiveemu answering: its version, and the file a launch option names to start it.</summary>
    public RunningArchiveEmu Running { get; init; } = RunningArchiveEmu.Current();

    /// <summary>
    /// The PATH a bare name in a Steam launch option is looked up in: the system's program folders only (systemd's default
    /// PATH). Steam reads no ~/.bashrc, so ~/.local/bin, where install.sh puts archiveemu, is taken as not on it (install.sh says so too).
    /// </summary>
    public string SteamSearchPath { get; init; } = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    /// <summary>This machine, as the host sees it.</summary>
    public static DoctorMachine Current()
    {
        var fuse = FuseMachine.Current();
        return new(fuse.DevFuse, fuse.SearchPath, fuse.IsRoot, fuse.KernelRelease, fuse.LibFuse,
            System.Environment.GetFolderPath(System.Environment.SpecialFolder.UserProfile), System.Environment.GetEnvironmentVariable);
    }

    /// <summary>What the mount's readiness is read from (<see cref="MountReadiness"/>).</summary>
    public FuseMachine Fuse => new(DevFuse, SearchPath, IsRoot, KernelRelease, LibFuse);

    /// <summary>The full path of <paramref name="name"/> in <see cref="SearchPath"/>, searched as the host searches it, or null.</summary>
    public string? OnPath(string name) => Fuse.OnPath(name);
}
