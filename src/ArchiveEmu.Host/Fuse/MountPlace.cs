using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// What is mounted at the folder a mount goes to (the game folder in place, or a mount point), read from /proc/self/mountinfo
/// and the kernel, and said one way (<see cref="Check"/>): the host's preflight clears a dead ArchiveEmu mount and refuses
/// what the check says stops a mount; <c>archiveemu doctor</c> shows the same check for the game folder, so the two cannot
/// disagree (issue 49). The machine's own readiness is <see cref="MountReadiness"/>.
/// </summary>
/// <param name="Folder">The folder as the lines name it.</param>
/// <param name="Mounted">The topmost mount there, or null.</param>
/// <param name="Dead">Whether the folder answers "Transport endpoint is not connected": a FUSE mount whose server is gone.</param>
internal sealed record MountPlace(string Folder, MountPointState.MountEntry? Mounted, bool Dead)
{
    /// <summary>The check's name where the mount goes over the game folder (doctor's line, <c>run</c>, <c>mount --in-place</c>).</summary>
    public const string GameFolderCheck = "game folder not mounted";

    /// <summary>What is at <paramref name="folder"/> now.</summary>
    public static MountPlace At(string folder)
    {
        Span<byte> stat = stackalloc byte[256];
        var mounted = MountPointState.Find(folder);
        // The kernel may answer stat from its attribute cache for a few seconds after the server died; opendir must ask.
        bool dead = LibC.Stat(folder, stat) == LibC.ENOTCONN
                    || (mounted is not null && LibC.ProbeDirectory(folder) == LibC.ENOTCONN);
        return new MountPlace(folder, mounted, dead);
    }

    /// <summary>A dead mount that is ArchiveEmu's, or whose kind mountinfo does not say: the host clears it before mounting.</summary>
    public bool IsDeadArchiveEmu => Dead && Mounted is not { IsArchiveEmu: false };

    /// <summary>
    /// The one wording of what is there: nothing (passed), a dead ArchiveEmu mount (a warning: mount and run clear it), or
    /// what stops a mount: a dead mount of something else, something else mounted, or a running ArchiveEmu (never advised to
    /// unmount: a game may be playing on it, a second launch from Steam while the first plays; the line says which process).
    /// </summary>
    public ReadinessCheck Check(bool inPlace)
    {
        string name = inPlace ? GameFolderCheck : "mount point not mounted";
        if (Dead && Mounted is { IsArchiveEmu: false } deadOther)
            return ReadinessCheck.Failed(name, $"{Folder}: a dead mount that is not ArchiveEmu's is there ({deadOther})", $"unmount it yourself (fusermount3 -u -z {Folder})");
        if (IsDeadArchiveEmu)
            return ReadinessCheck.Warning(name, $"{Folder}: a dead ArchiveEmu mount is left there (its host ended without unmounting; every read of the folder fails)",
                $"archiveemu unmount {Folder} (mount and run also clear it before they start)");
        if (Mounted is null)
            return ReadinessCheck.Passed(name, $"{Folder}: nothing is mounted on it");
        if (!Mounted.IsArchiveEmu)
            return ReadinessCheck.Failed(name, $"{Folder}: something else is mounted on it ({Mounted})",
                $"unmount it yourself (fusermount3 -u {Folder}, or umount as root) before ArchiveEmu mounts here");
        var server = MountServer.Find(Path.TrimEndingDirectorySeparator(Path.GetFullPath(Folder)))?.ToString() ?? "its process is not one this user can see";
        return inPlace
            ? ReadinessCheck.Failed(name, $"{Folder}: the game is already served by a running ArchiveEmu ({server})",
                "leave it serving: it ends with that process (a run, when its game exits), then launch again")
            : ReadinessCheck.Failed(name, $"{Folder}: already mounted there (busy) by a running ArchiveEmu ({server})", "mount at another empty folder, or use that mount");
    }
}
