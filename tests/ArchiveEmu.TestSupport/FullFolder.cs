namespace ArchiveEmu.TestSupport;

/// <summary>
/// A folder on a file system with no free space: a 1 MiB tmpfs, mounted at a new folder and filled up by one file
/// (<see cref="Filler"/>), for the tests of a cache on a full disk. Linux and root only (a mount); elsewhere the test skips,
/// or fails on CI's machine (<see cref="CiMachine"/>). <see cref="MakeRoom"/> deletes the filler. Dispose unmounts it.
/// </summary>
public sealed class FullFolder : IDisposable
{
    private readonly TempDirectory _scratch;

    /// <summary>The mounted file system's root.</summary>
    public string Folder { get; }

    /// <summary>The file that takes all the space.</summary>
    public string Filler => System.IO.Path.Combine(Folder, "filler");

    private FullFolder(TempDirectory scratch)
    {
        _scratch = scratch;
        Folder = System.IO.Path.Combine(scratch.Path, "full");
    }

    public static FullFolder Create()
    {
        LinuxOnly.Require("a tmpfs mount");
        CiMachine.RequireRoot("a tmpfs mount");
        var folder = new FullFolder(new TempDirectory("full"));
        try
        {
            Directory.CreateDirectory(folder.Folder);
            var mount = ExternalTool.Run("/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.Folder);
            if (mount.ExitCode != 0)
                CiMachine.Require($"mount -t tmpfs failed: {mount.StdErr.Trim()}");
            using (var filler = File.Create(folder.Filler))
            {
                var block = new byte[4096];
                try
                {
                    while (true)
                    {
                        filler.Write(block);
                        filler.Flush();
                    }
                }
                catch (IOException) // ENOSPC: full
                {
                }
            }
            return folder;
        }
        catch
        {
            folder.Dispose();
            throw;
        }
    }

    /// <summary>Frees the space again.</summary>
    public void MakeRoom() => File.Delete(Filler);

    public void Dispose()
    {
        for (int i = 0; i < 5 && File.ReadAllText("/proc/self/mounts").Contains($" {Folder} "); i++)
            ExternalTool.Run("/bin/umount", i == 0 ? Folder : "-l", Folder);
        _scratch.Dispose();
    }
}
