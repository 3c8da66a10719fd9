namespace ArchiveEmu.Cli.Release;

/// <summary>
/// <c>archiveemu update</c>'s work: asks the release server for the latest version and, when it is newer than the one
/// installed, downloads this machine's archive, checks it against the release's SHA256SUMS, puts its program in the
/// installed one's place (<see cref="ProgramReplacement"/>) and prints what changed in between. Any failure leaves the
/// installed program as it was.
/// </summary>
/// <param name="server">Where releases are.</param>
/// <param name="installed">The version running (<c>archiveemu --version</c>).</param>
/// <param name="output">Where the lines go.</param>
internal sealed class Updater(ReleaseServer server, ReleaseVersion installed, TextWriter output)
{
    /// <summary>update --check's exit when a newer release exists (0: none, 1: could not tell).</summary>
    public const int NewerExists = 10;

    /// <summary>Says whether a newer release exists: 0 when none, <see cref="NewerExists"/> when one does.</summary>
    public int Check()
    {
        var latest = WithTemporaryFolder(server.Latest);
        if (latest.CompareTo(installed) <= 0)
            return UpToDate(latest);
        output.WriteLine($"archiveemu {latest} is out (this is {installed}): 'archiveemu update' installs it");
        return NewerExists;
    }

    /// <summary>Replaces <paramref name="program"/> with the latest release's for <paramref name="rid"/> when it is newer.</summary>
    public int Update(string program, string rid) => WithTemporaryFolder(work =>
    {
        var latest = server.Latest(work);
        if (latest.CompareTo(installed) <= 0)
            return UpToDate(latest);
        var name = ReleaseServer.ArchiveName(latest, rid);
        output.WriteLine($"archiveemu update: downloading archiveemu {latest} for {rid} from {server.Base}");
        var listed = ReleaseChecksums.Listed(server.Fetch(latest, "SHA256SUMS", work), name);
        var archive = server.Fetch(latest, name, work);
        ReleaseChecksums.Verify(listed, name, archive);
        var release = ReleaseArchive.Read(archive, $"archiveemu-{latest}-{rid}");
        var says = ProgramReplacement.Replace(program, release.Program);
        output.WriteLine($"archiveemu update: replaced {program} ({installed} → {says})");
        var changes = ChangesSections.Between(release.Changes, installed, latest);
        if (changes.Length > 0)
        {
            output.WriteLine("What changed:");
            output.WriteLine(changes);
        }
        return 0;
    });

    private int UpToDate(ReleaseVersion latest)
    {
        output.WriteLine(latest.CompareTo(installed) == 0
            ? $"archiveemu {installed} is up to date (the latest at {server.Base})"
            : $"archiveemu {installed} is newer than the latest release at {server.Base} ({latest}): nothing to update");
        return 0;
    }

    private static T WithTemporaryFolder<T>(Func<string, T> work)
    {
        var folder = Directory.CreateTempSubdirectory("archiveemu-update-").FullName;
        try
        {
            return work(folder);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
