using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>The game folder: nothing mounted on it already (and if something is, whose), and every folder and file of it readable.</summary>
internal static class GameFolderChecks
{
    public const string Mounted = MountPlace.GameFolderCheck, Readable = "game folder readable";

    public static IEnumerable<DoctorCheck> Run(string game)
    {
        var full = Path.GetFullPath(game);
        // The mount first: a dead one (a killed run) answers every stat with ENOTCONN, and looked "not found, or not a folder".
        var mount = NotMounted(full);
        if (mount.Ok && Missing(full) is { } missing)
        {
            yield return missing;
            yield break;
        }
        yield return mount;
        // Through a mount the walk would read the served game (and wait on a dead one): the folder below is what counts.
        yield return mount.Ok ? ReadableAll(full) : DoctorCheck.Fact(Readable, $"{full}: not walked, since something is mounted on it");
    }

    /// <summary>The failed check of a game folder that does not exist (asked on any system), or null.</summary>
    internal static DoctorCheck? Missing(string game) => Directory.Exists(game) ? null
        : DoctorCheck.Failed(Readable, $"{Path.GetFullPath(game)}: not found, or not a folder", "give the game's folder (the one holding its .exe) with --game");

    /// <summary>What is mounted at the game folder, the host's own check before it mounts in place (<see cref="MountPlace"/>).</summary>
    internal static DoctorCheck NotMounted(string full) => FuseChecks.Shown(MountPlace.At(full).Check(inPlace: true));

    /// <summary>Every folder lists and every file opens for reading, as this user: the host reads them all, under this user's rights.</summary>
    internal static DoctorCheck ReadableAll(string full)
    {
        int folders = 0, files = 0;
        var unreadable = new List<string>();
        var pending = new Stack<string>([full]);
        while (pending.Count > 0)
        {
            var folder = pending.Pop();
            string[] entries;
            try
            {
                entries = Directory.GetFileSystemEntries(folder);
                folders++;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                unreadable.Add(folder + "/");
                continue;
            }
            foreach (var entry in entries)
            {
                if (Directory.Exists(entry) && new FileInfo(entry).LinkTarget is null)
                    pending.Push(entry); // a symlinked folder is opened as a file below, not walked: no loops
                else if (CanRead(entry))
                    files++;
                else
                    unreadable.Add(entry);
            }
        }
        if (unreadable.Count == 0)
            return DoctorCheck.Passed(Readable, $"{full}: {folders} folder(s) and {files} file(s), all readable by this user");
        unreadable.Sort(StringComparer.Ordinal);
        return DoctorCheck.Failed(Readable, $"{full}: {unreadable.Count} not readable by this user: {string.Join(", ", unreadable.Take(3))}"
            + (unreadable.Count > 3 ? ", …" : ""), $"let this user read the game (chmod -R u+rX,o+rX {full}, or chown -R to this user)");
    }

    private const int ReadOnlyNonBlocking = 0x800 | 0x80000; // O_RDONLY | O_NONBLOCK | O_CLOEXEC: a FIFO must not hold the walk

    private static bool CanRead(string path)
    {
        int fd = Core.Interop.LibC.Open(path, ReadOnlyNonBlocking);
        if (fd < 0)
            return false;
        Core.Interop.LibC.Close(fd);
        return true;
    }
}
