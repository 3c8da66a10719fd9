namespace ArchiveEmu.TestSupport;

/// <summary>
/// A folder on a file system that shares blocks between files (XFS made with reflink, or btrfs, on a loop device), for the
/// tests of copy-on-write clones: this machine's own disk is ext4, which cannot. Linux and root only (a loop mount), and
/// mkfs.xfs (xfsprogs) or mkfs.btrfs (btrfs-progs); where one is missing the test skips, or fails on CI's machine (<see cref="CiMachine"/>).
/// Dispose unmounts it, asking again until it is gone, and deletes the image.
/// </summary>
public sealed class ReflinkFolder : IDisposable
{
    private readonly TempDirectory _scratch;

    /// <summary>The mounted file system's root.</summary>
    public string Folder { get; }

    private ReflinkFolder(TempDirectory scratch)
    {
        _scratch = scratch;
        Folder = Path.Combine(scratch.Path, "mounted");
    }

    /// <summary>A 320 MiB file system (the least mkfs.xfs makes; sparse, so it takes what is written), "xfs" or "btrfs", mounted at a new folder.</summary>
    public static ReflinkFolder Create(string fileSystem = "xfs")
    {
        LinuxOnly.Require($"a {fileSystem} loop mount");
        CiMachine.RequireRoot($"a loop mount of a {fileSystem} image");
        ExternalTool.Require($"mkfs.{fileSystem}");
        var folder = new ReflinkFolder(new TempDirectory("reflink"));
        try
        {
            string image = Path.Combine(folder._scratch.Path, "image");
            using (var file = File.Create(image))
                file.SetLength(320L << 20);
            Directory.CreateDirectory(folder.Folder);
            Check(fileSystem == "xfs" ? ExternalTool.Run("mkfs.xfs", "-q", "-m", "reflink=1", image) : ExternalTool.Run($"mkfs.{fileSystem}", "-q", image),
                $"mkfs.{fileSystem}");
            Check(ExternalTool.Run("/bin/mount", "-o", "loop", image, folder.Folder), "mount -o loop");
            return folder;
        }
        catch
        {
            folder.Dispose();
            throw;
        }
    }

    /// <summary>Skips a test that needs <paramref name="folder"/> on a file system that cannot share blocks, when it is on one that can.</summary>
    public static void IgnoreIfItSharesBlocks(string folder)
    {
        var type = ExternalTool.Run("stat", "-f", "-c", "%T", folder).StdOut.Trim();
        if (type is "xfs" or "btrfs")
            Assert.Ignore($"{folder} is on {type}, which shares blocks");
    }

    private static void Check(ToolResult result, string what)
    {
        if (result.ExitCode != 0)
            CiMachine.Require($"{what} failed: {result.StdErr.Trim()}");
    }

    public void Dispose()
    {
        for (int i = 0; i < 5 && File.ReadAllText("/proc/self/mounts").Contains($" {Folder} "); i++)
            ExternalTool.Run("/bin/umount", i == 0 ? Folder : "-l", Folder); // a lazy unmount if a plain one would not do
        _scratch.Dispose();
    }
}
