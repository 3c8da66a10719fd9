namespace ArchiveEmu.TestSupport;

/// <summary>
/// A folder mounted read-only over itself (a bind mount, then a read-only remount of it): root ignores permission bits,
/// so this is how a test running as root gets a folder nothing can write into, as on a read-only disk. Linux and root
/// only; where either is missing the test skips, or fails on CI's machine (<see cref="CiMachine"/>).
/// Dispose unmounts it, asking again until it is gone: a bind mount left behind would outlive the test run.
/// </summary>
public sealed class ReadOnlyBindMount : IDisposable
{
    public string Folder { get; }

    private ReadOnlyBindMount(string folder) => Folder = folder;

    /// <summary>Makes <paramref name="folder"/> (which must exist) read-only until disposed.</summary>
    public static ReadOnlyBindMount Over(string folder)
    {
        LinuxOnly.Require("a read-only bind mount");
        CiMachine.Require(Environment.UserName != "root" || !File.Exists("/bin/mount") ? "needs root and mount(8) for a read-only bind mount" : null);
        var mounted = new ReadOnlyBindMount(Path.GetFullPath(folder));
        foreach (var args in new[] { new[] { "--bind", mounted.Folder, mounted.Folder }, ["-o", "remount,bind,ro", mounted.Folder] })
        {
            var mount = ExternalTool.Run("/bin/mount", args);
            if (mount.ExitCode != 0)
            {
                mounted.Dispose();
                CiMachine.Require($"could not mount {mounted.Folder} read-only: {mount.StdErr.Trim()}");
            }
        }
        return mounted;
    }

    public void Dispose()
    {
        for (int i = 0; i < 5 && File.ReadAllText("/proc/self/mounts").Contains($" {Folder} "); i++)
            ExternalTool.Run("/bin/umount", "-l", Folder);
    }
}
