using System.Runtime.InteropServices;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>Whether this machine can mount FUSE filesystems; mount tests are skipped, with the reason, where it cannot.</summary>
internal static class LibFuseProbe
{
    public static string? MissingReason()
    {
        if (!File.Exists("/dev/fuse"))
            return "/dev/fuse is missing (no fuse kernel module, or a container without --device /dev/fuse)";
        if (!NativeLibrary.TryLoad("libfuse3.so.3", out var handle))
            return "libfuse3.so.3 is not installed (apt-get install fuse3 libfuse3-3)";
        NativeLibrary.Free(handle);
        return null;
    }

    /// <summary>Set (to 1) where mounting must work: a test that would skip for want of FUSE fails instead (so does ARCHIVEEMU_CI=1, <see cref="CiMachine"/>).</summary>
    public const string RequiredVariable = "ARCHIVEEMU_REQUIRE_FUSE";

    /// <summary>Skips the calling test (printing why) when mounting is impossible here; fails it instead where <see cref="RequiredVariable"/> is set.</summary>
    public static void RequireFuse() => Require(MissingReason(), Environment.GetEnvironmentVariable(RequiredVariable) == "1" || CiMachine.IsCi);

    /// <summary>
    /// <see cref="RequireFuse"/>, and for the "kernel" fixtures (the host speaking the FUSE protocol itself, mounted with
    /// mount(2), passthrough on) root too: a normal user's mount of that protocol, through fusermount3, is covered by the
    /// tests that run the host as nobody (MountLifecycleTests, InPlaceAsUserTests, SteamContainerRunTests).
    /// </summary>
    public static void RequireTransport(string fuse)
    {
        RequireFuse();
        if (fuse == "kernel")
            CiMachine.RequireRoot("the kernel fixtures mount with mount(2) and pass files through, as root; the libfuse fixture and the tests run as nobody cover a normal user");
    }

    internal static void Require(string? missingReason, bool required)
    {
        if (missingReason is null)
            return;
        if (required)
            Assert.Fail($"FUSE mount tests cannot run: {missingReason} ({RequiredVariable}=1 says this machine must mount)");
        TestContext.Progress.WriteLine($"FUSE mount tests skipped: {missingReason}");
        Assert.Ignore($"FUSE mount tests skipped: {missingReason}");
    }

    public static bool IsDeadMount(string path)
    {
        try
        {
            Directory.GetFileSystemEntries(path);
            return false;
        }
        catch (IOException e) when (e.Message.Contains("not connected", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }
    }
}
