using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary><c>build --merge</c> draws a progress bar on a terminal and stays quiet when piped.</summary>
public sealed class ProgressBarTests
{
    private const string Bar = "merging [";
    private TempDirectory _dir = null!;
    private string[] _buildArgs = [];

    [SetUp]
    public void CreateCache()
    {
        _dir = new TempDirectory("progress");
        _buildArgs = ["build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"),
            "--mod", CliRun.Fixture("mods/ui-fix"), "--merge", "always", "--cache", _dir["cache"]];
    }

    [TearDown]
    public void DeleteCache() => _dir.Dispose();

    [Test]
    public void OnATerminal_TheBarReachesFullAndIsClearedBeforeTheSummary()
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = Program.Run(_buildArgs, new CliConsole(output, error, isInteractive: true));

        Assert.That(code, Is.Zero, error.ToString());
        var drawn = error.ToString();
        Assert.That(drawn, Does.Contain($"\r  {Bar}##############################] 100% data/textures.afs"));
        Assert.That(drawn, Does.EndWith("\r"), "the line is blanked, so the next output starts clean");
        Assert.That(output.ToString(), Does.Not.Contain(Bar), "the bar never goes to stdout");
        Assert.That(output.ToString(), Does.Contain("data/textures.afs"));
    }

    [Test]
    public void ARealPseudoTerminal_GetsTheBar_AndAPipeDoesNot()
    {
        ExternalTool.Require("script"); // util-linux's, for a pseudo-terminal to run the CLI on
        var command = string.Join(' ', ArchiveEmuProgram.CommandLine.Concat(_buildArgs).Select(Quote));
        var onTerminal = ExternalTool.Run("/usr/bin/script", "-qec", command, "/dev/null");
        Assert.That(onTerminal.ExitCode, Is.Zero, onTerminal.ToString());
        Assert.That(onTerminal.StdOut, Does.Contain(Bar), "stdin/stdout/stderr on a pty: progress is drawn");

        Directory.Delete(_dir["cache"], recursive: true); // merge again, this time piped
        var piped = ArchiveEmuProgram.Run(_buildArgs);
        Assert.That(piped.ExitCode, Is.Zero, piped.ToString());
        Assert.That(piped.StdOut + piped.StdErr, Does.Contain("merged").And.Not.Contain(Bar));
    }


    private static string Quote(string arg) => "'" + arg.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
