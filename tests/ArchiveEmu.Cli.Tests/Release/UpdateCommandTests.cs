using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Release;

/// <summary><c>archiveemu update</c> as a player runs it: the release server from ARCHIVEEMU_RELEASES, the exit codes.</summary>
[NonParallelizable] // sets ARCHIVEEMU_RELEASES for the process
public class UpdateCommandTests
{
    [Test]
    public void Without_a_release_server_it_says_how_to_name_one()
    {
        var result = WithReleases("", "update", "--check");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo("archiveemu update: no release server is set in this build: set ARCHIVEEMU_RELEASES=URL (docs/INSTALL.md, \"Updating\")\n"));
    }

    [Test]
    public void Check_exits_10_when_a_newer_release_is_served()
    {
        LinuxOnly.Require("the release server is reached with curl");
        using var server = new FakeReleaseServer();
        server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), "## 99.0.0\n");
        var result = WithReleases(server.Url, "update", "--check");
        Assert.That(result.ExitCode, Is.EqualTo(10), result.ToString());
        Assert.That(result.Out, Does.StartWith("archiveemu 99.0.0 is out (this is 0.2.0-dev"));
    }

    [Test]
    public void A_program_run_by_dotnet_is_not_replaced()
    {
        LinuxOnly.Require("the release server is reached with curl");
        if (ArchiveEmuProgram.Installed is not null)
            Assert.Ignore("runs in-process only: against an installed program (ARCHIVEEMU_EXE) update would replace it");
        using var server = new FakeReleaseServer();
        server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), "## 99.0.0\n");
        var result = WithReleases(server.Url, "update");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.StartWith($"archiveemu update: this archiveemu runs under {Environment.ProcessPath} (a build from the repository)"));
    }

    private static CliResult WithReleases(string url, params string[] args)
    {
        Environment.SetEnvironmentVariable("ARCHIVEEMU_RELEASES", url);
        try
        {
            return CliRun.Run(args);
        }
        finally
        {
            Environment.SetEnvironmentVariable("ARCHIVEEMU_RELEASES", null);
        }
    }
}
