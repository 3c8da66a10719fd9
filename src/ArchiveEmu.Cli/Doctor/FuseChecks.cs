using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// What the machine must offer any FUSE mount: the host's own list (<see cref="MountReadiness"/>: the device, fusermount3 for a
/// normal user; libfuse3 and passthrough as facts), shown line by line, so doctor and the mount cannot disagree.
/// </summary>
internal static class FuseChecks
{
    public static IEnumerable<DoctorCheck> Run(DoctorMachine machine) => MountReadiness.Of(machine.Fuse).Select(Shown);

    /// <summary>One of the host's checks as doctor's line, outcome for outcome.</summary>
    public static DoctorCheck Shown(ReadinessCheck c) => c.Outcome switch
    {
        ReadinessOutcome.Pass => DoctorCheck.Passed(c.Name, c.Detail, c.Blocking),
        ReadinessOutcome.Fail => new DoctorCheck(c.Name, Outcome.Fail, c.Blocking, c.Detail, c.Fix),
        ReadinessOutcome.Warn => DoctorCheck.Warning(c.Name, c.Detail, c.Fix!),
        _ => DoctorCheck.Fact(c.Name, c.Detail),
    };
}
