using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>What the machine must offer any FUSE mount: the device, fusermount3 for a normal user, and (facts only) libfuse3 and passthrough.</summary>
internal static partial class FuseChecks
{
    private const int ReadWrite = 2, CloseOnExec = 0x80000; // O_RDWR, O_CLOEXEC
    private static readonly Version FirstWithPassthrough = new(6, 9); // Linux 6.9 added FUSE passthrough (FUSE 7.40)

    public static IEnumerable<DoctorCheck> Run(DoctorMachine machine)
    {
        yield return Device(machine);
        if (!machine.IsRoot)
        {
            yield return Fusermount(machine);
            yield return Library(machine);
        }
        yield return Passthrough(machine);
    }

    /// <summary>/dev/fuse must open read-write for this user: every mount, libfuse's or the host's own, starts there.</summary>
    internal static DoctorCheck Device(DoctorMachine machine)
    {
        const string name = "/dev/fuse";
        if (!File.Exists(machine.DevFuse))
            return DoctorCheck.Failed(name, $"{machine.DevFuse} is missing (no fuse kernel module, or a container started without the device)",
                "load the module (sudo modprobe fuse); in a container, start it with --device /dev/fuse");
        int fd = Core.Interop.LibC.Open(machine.DevFuse, ReadWrite | CloseOnExec);
        if (fd < 0)
        {
            var error = Marshal.GetLastPInvokeError();
            return DoctorCheck.Failed(name, $"{machine.DevFuse} cannot be opened read-write by this user ({Marshal.GetPInvokeErrorMessage(error)})",
                Host.Fuse.DevFuseAccess.Fix(machine.DevFuse));
        }
        Core.Interop.LibC.Close(fd);
        return DoctorCheck.Passed(name, $"{machine.DevFuse} opens read-write");
    }

    /// <summary>A normal user mounts through the setuid fusermount3 (it hands the host the /dev/fuse descriptor), and unmounts a dead mount with it.</summary>
    internal static DoctorCheck Fusermount(DoctorMachine machine) => machine.OnPath("fusermount3") is { } found
        ? DoctorCheck.Passed("fusermount3", $"found at {found}")
        : DoctorCheck.Failed("fusermount3", "fusermount3 is not on PATH: a normal user cannot mount without it",
            "install it (Debian/Ubuntu: sudo apt-get install fuse3; SteamOS has it)");

    /// <summary>
    /// libfuse3, loaded as the host loads it (<see cref="LibFuse.Unavailable"/>): only <c>ArchiveEmu:Fuse=libfuse</c> uses it,
    /// since the host speaks the FUSE protocol itself on the descriptor fusermount3 hands back. Never blocking.
    /// </summary>
    internal static DoctorCheck Library(DoctorMachine machine) => LibFuse.Unavailable(machine.LibFuse) is { } problem
        ? DoctorCheck.Fact("libfuse3", $"{problem}; only ArchiveEmu:Fuse=libfuse needs it (the host speaks the FUSE protocol itself)")
        : DoctorCheck.Passed("libfuse3", $"{machine.LibFuse} loads, with the entry points the host uses (only for ArchiveEmu:Fuse=libfuse)", blocking: false);

    /// <summary>
    /// Passthrough (reads of unchanged files go straight to the disk) needs Linux 6.9 and root, where the host mounts through
    /// mount(2) itself (<see cref="Host.Fuse.Kernel.KernelMount.MountsDirectly"/>); without it every read is served by the host. Never blocking.
    /// </summary>
    internal static DoctorCheck Passthrough(DoctorMachine machine)
    {
        var match = ReleasePattern().Match(machine.KernelRelease);
        var version = match.Success ? new Version(int.Parse(match.Groups[1].Value), int.Parse(match.Groups[2].Value)) : null;
        string kernel = version is null ? $"kernel release '{machine.KernelRelease}' not understood"
            : version >= FirstWithPassthrough ? $"Linux {machine.KernelRelease} offers it" : $"Linux {machine.KernelRelease} is older than 6.9";
        string user = machine.IsRoot ? "as root the host asks for it" : "as a normal user the host mounts through fusermount3, without it";
        return DoctorCheck.Fact("kernel passthrough", $"{kernel}; {user} (a speed-up only: without it the host serves every read)");
    }

    [GeneratedRegex(@"^(\d+)\.(\d+)")]
    private static partial Regex ReleasePattern();
}
