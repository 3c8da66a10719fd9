using ArchiveEmu.Cli.Release;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Release;

/// <summary>What update takes from a release archive, packed with the system's tar.</summary>
public class ReleaseArchiveTests
{
    private const string Folder = "archiveemu-1.0.0-linux-x64";

    [Test]
    public void The_program_and_the_changes_are_read_from_the_release_s_folder()
    {
        using var staging = Staged();
        staging.Write($"{Folder}/archiveemu", "#!/bin/sh\n"u8.ToArray());
        staging.Write($"{Folder}/CHANGES.md", "## 1.0.0\n"u8.ToArray());
        staging.Write("elsewhere/archiveemu", "not this one"u8.ToArray());
        var release = ReleaseArchive.Read(Pack(staging, Folder, "elsewhere"), Folder);
        Assert.That(release.Program, Is.EqualTo("#!/bin/sh\n"u8.ToArray()));
        Assert.That(release.Changes, Is.EqualTo("## 1.0.0\n"));
    }

    [Test]
    public void A_program_that_is_a_link_is_refused()
    {
        using var staging = Staged();
        Directory.CreateDirectory(staging[Folder]);
        File.CreateSymbolicLink(staging[$"{Folder}/archiveemu"], "/bin/sh");
        var e = Assert.Throws<InvalidDataException>(() => ReleaseArchive.Read(Pack(staging, Folder), Folder));
        Assert.That(e!.Message, Is.EqualTo($"release.tar.gz: {Folder}/archiveemu is not a plain file (SymbolicLink)"));
    }

    [Test]
    public void An_archive_without_the_program_says_so()
    {
        using var staging = Staged();
        staging.Write($"{Folder}/CHANGES.md", "## 1.0.0\n"u8.ToArray());
        var e = Assert.Throws<InvalidDataException>(() => ReleaseArchive.Read(Pack(staging, Folder), Folder));
        Assert.That(e!.Message, Is.EqualTo($"release.tar.gz holds no {Folder}/archiveemu"));
    }

    private static TempDirectory Staged()
    {
        LinuxOnly.Require("the archive is packed with the system's tar, a link in it made as on Linux");
        ExternalTool.Require("tar");
        return new TempDirectory("release-archive");
    }

    private static string Pack(TempDirectory staging, params string[] folders)
    {
        var archive = staging["release.tar.gz"];
        var tar = ExternalTool.RunIn(staging.Path, "tar", ["-czf", archive, .. folders]);
        Assert.That(tar.ExitCode, Is.EqualTo(0), tar.ToString());
        return archive;
    }
}
