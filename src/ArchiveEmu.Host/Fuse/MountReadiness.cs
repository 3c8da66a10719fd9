using System.Runtime.InteropServices;
using System.Text.RegularExpressions;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// What a FUSE mount needs of this machine, as one list: the device, fusermount3 for a normal user, libfuse3 (only where the
/// settings ask for it) and, as a fact, passthrough. The host reads it before mounting (the first check that stops a mount is
/// its error line) and <c>archiveemu doctor</c> shows every line of it, so the two cannot disagree (issue 49).
/// </summary>
internal static partial class MountReadiness
{
    private const int ReadWrite = 2, CloseOnExec = 0x80000; // O_RDWR, O_CLOEXEC
    private static readonly Version FirstWithPassthrough = new(6, 9); // Linux 6.9 added FUSE passthrough (FUSE 7.40)

    /// <param name="libFuseNeeded">Whether the mount will speak FUSE through libfuse3 (<c>ArchiveEmu:Fuse=libfuse</c>, or auto where neither root nor fusermount3 can mount): then a missing library stops it.</param>
    public static IEnumerable<ReadinessCheck> Of(FuseMachine machine, bool libFuseNeeded = false)
    {
        yield return Device(machine);
        if (!machine.IsRoot)
            yield return Fusermount(machine);
        if (!machine.IsRoot || libFuseNeeded)
            yield return Library(machine, libFuseNeeded);
        yield return Passthrough(machine);
    }

    /// <summary>/dev/fuse must open read-write for this user: every mount, libfuse's or the host's own, starts there.</summary>
    private static ReadinessCheck Device(FuseMachine machine)
    {
        const string name = "/dev/fuse";
        if (!File.Exists(machine.DevFuse))
            return ReadinessCheck.Failed(name, $"{machine.DevFuse} is missing (no fuse kernel module, or a container started without the device)",
                "load the module (sudo modprobe fuse); in a container, start it with --device /dev/fuse");
        int fd = Core.Interop.LibC.Open(machine.DevFuse, ReadWrite | CloseOnExec);
        if (fd < 0)
        {
            var error = Marshal.GetLastPInvokeError();
            return ReadinessCheck.Failed(name, $"{machine.DevFuse} cannot be opened read-write by this user ({Marshal.GetPInvokeErrorMessage(error)})",
                DevFuseAccess.Fix(machine.DevFuse));
        }
        Core.Interop.LibC.Close(fd);
        return ReadinessCheck.Passed(name, $"{machine.DevFuse} opens read-write");
    }

    /// <summary>A normal user mounts through the setuid fusermount3 (it hands the host the /dev/fuse descriptor), and unmounts a dead mount with it.</summary>
    private static ReadinessCheck Fusermount(FuseMachine machine) => machine.OnPath("fusermount3") is { } found
        ? ReadinessCheck.Passed("fusermount3", $"found at {found}")
        : ReadinessCheck.Failed("fusermount3", "fusermount3 is not on PATH: a normal user cannot mount without it",
            "install it (Debian/Ubuntu: sudo apt-get install fuse3; SteamOS has it)");

    /// <summary>
    /// libfuse3, loaded as the host loads it (<see cref="LibFuse.Unavailable"/>): only a mount through libfuse uses it, since the
    /// host speaks the FUSE protocol itself on the descriptor mount(2) or fusermount3 gives it; otherwise a fact.
    /// </summary>
    private static ReadinessCheck Library(FuseMachine machine, bool needed)
    {
        if (LibFuse.Unavailable(machine.LibFuse) is not { } problem)
            return ReadinessCheck.Passed("libfuse3", $"{machine.LibFuse} loads, with the entry points the host uses (only for ArchiveEmu:Fuse=libfuse)", blocking: needed);
        return needed ? ReadinessCheck.Failed("libfuse3", problem, fix: null)
            : ReadinessCheck.Fact("libfuse3", $"{problem}; only ArchiveEmu:Fuse=libfuse needs it (the host speaks the FUSE protocol itself)");
    }

    /// <summary>
    /// Passthrough (reads of unchanged files go straight to the disk) needs Linux 6.9 and root, where the host mounts through
    /// mount(2) itself (<see cref="Kernel.KernelMount.MountsDirectly"/>); without it every read is served by the host. A fact.
    /// </summary>
    private static ReadinessCheck Passthrough(FuseMachine machine)
    {
        var match = ReleasePattern().Match(machine.KernelRelease);
        var version = match.Success ? new Version(int.Parse(match.Groups[1].Value), int.Parse(match.Groups[2].Value)) : null;
        string kernel = version is null ? $"kernel release '{machine.KernelRelease}' not understood"
            : version >= FirstWithPassthrough ? $"Linux {machine.KernelRelease} offers it" : $"Linux {machine.KernelRelease} is older than 6.9";
        string user = machine.IsRoot ? "as root the host asks for it" : "as a normal user the host mounts through fusermount3, without it";
        return ReadinessCheck.Fact("kernel passthrough", $"{kernel}; {user} (a speed-up only: without it the host serves every read)");
    }

    [GeneratedRegex(@"^(\d+)\.(\d+)")]
    private static partial Regex ReleasePattern();
}

/// <summary>One line of <see cref="MountReadiness"/> or <see cref="MountPlace"/>: passed, failed (stopping a mount when <see cref="Blocking"/>), a warning, or a fact to know.</summary>
internal sealed record ReadinessCheck(string Name, ReadinessOutcome Outcome, bool Blocking, string Detail, string? Fix)
{
    /// <summary>Whether this check stops a mount.</summary>
    public bool Stops => Blocking && Outcome == ReadinessOutcome.Fail;

    /// <summary>The host's one error line for it: what is wrong, then what to do.</summary>
    public string Line => Fix is null ? Detail : $"{Detail}; {Fix}";

    public static ReadinessCheck Passed(string name, string detail, bool blocking = true) => new(name, ReadinessOutcome.Pass, blocking, detail, null);

    public static ReadinessCheck Failed(string name, string detail, string? fix) => new(name, ReadinessOutcome.Fail, true, detail, fix);

    /// <summary>Something to mend that does not stop a mount (the host deals with it: a dead mount of its own, cleared).</summary>
    public static ReadinessCheck Warning(string name, string detail, string fix) => new(name, ReadinessOutcome.Warn, false, detail, fix);

    public static ReadinessCheck Fact(string name, string detail) => new(name, ReadinessOutcome.Fact, false, detail, null);
}

internal enum ReadinessOutcome { Pass, Fail, Warn, Fact }

/// <summary>
/// The facts about this machine the mount's readiness is read from, in one place so a test can point them elsewhere (a
/// /dev/fuse that is missing, a PATH without fusermount3) where it cannot change the machine itself.
/// </summary>
/// <param name="DevFuse">The FUSE device.</param>
/// <param name="SearchPath">PATH, as programs are looked up in it.</param>
/// <param name="IsRoot">Whether this process has root's rights (the host then mounts through mount(2) and may use passthrough).</param>
/// <param name="KernelRelease">The running kernel's release (<c>uname -r</c>).</param>
/// <param name="LibFuse">The libfuse3 library's name, as the host loads it.</param>
internal sealed record FuseMachine(string DevFuse, string SearchPath, bool IsRoot, string KernelRelease, string LibFuse)
{
    /// <summary>This machine, as the host sees it.</summary>
    public static FuseMachine Current() => new(
        "/dev/fuse",
        Environment.GetEnvironmentVariable("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
        Kernel.KernelMount.MountsDirectly,
        ReadRelease(),
        Fuse.LibFuse.Library);

    private static string ReadRelease()
    {
        try
        {
            return File.ReadAllText("/proc/sys/kernel/osrelease").Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }

    /// <summary>The full path of <paramref name="name"/> in <see cref="SearchPath"/>, searched as the host searches it, or null.</summary>
    public string? OnPath(string name) => ProgramSearch.OnPath(name, SearchPath);
}
