using System.Runtime.InteropServices;

namespace ArchiveEmu.Host.Tests.Mount;

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

    /// <summary>Skips the calling test (printing why) when mounting is impossible here.</summary>
    public static void RequireFuse()
    {
        if (MissingReason() is { } reason)
        {
            TestContext.Progress.WriteLine($"FUSE mount tests skipped: {reason}");
            Assert.Ignore($"FUSE mount tests skipped: {reason}");
        }
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
