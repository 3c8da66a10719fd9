namespace ArchiveEmu.TestSupport;

/// <summary>
/// Skips a test on Windows (the win-x64 check under Wine, .ci/windows-check) when what it proves needs Linux, with the
/// reason: reported as skipped and counted as excluded there, never as passed.
/// </summary>
public static class LinuxOnly
{
    /// <summary>Skips unless on Linux, saying which Linux feature the test needs.</summary>
    public static void Require(string feature)
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore($"LinuxOnly: {feature}");
    }

    /// <summary>
    /// For tests of symlinks in mod folders: Wine makes a Windows symlink a Unix one that Windows calls see through
    /// (no reparse point), and real Windows needs Developer Mode to create one, so the check cannot be seen there.
    /// </summary>
    public static void RequireSymlinks() => Require("symlinks (under Wine a Windows symlink is a Unix one Windows calls see through)");
}
