using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 32: long work shows progress on a terminal (a build of every archive, <c>cache verify</c>) and none when piped:
/// the bar goes to stderr only, and is blanked before the next output.
/// </summary>
public sealed class ProgressOnTerminalTests
{
    private TempDirectory _dir = null!;
    private string[] _build = [];

    [SetUp]
    public void CreateCache()
    {
        _dir = new TempDirectory("progress-terminal");
        _build = ["build", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--cache", _dir["cache"]];
    }

    [TearDown]
    public void DeleteCache() => _dir.Dispose();

    [Test]
    public void Build_OnATerminal_CountsTheArchivesBuilt_AndBlanksTheLine()
    {
        var (code, output, error) = OnTerminal(_build);
        Assert.That(code, Is.Zero, error);
        const string full = "\r  building [##############################] 2/2 archives data/textures.afs";
        Assert.That(error, Does.Contain(full));
        Assert.That(error, Does.EndWith("\r" + new string(' ', full.Length - 1) + "\r"), "the line is blanked");
        Assert.That(output, Does.Not.Contain("building ["));
    }

    [Test]
    public void CacheVerify_OnATerminal_CountsTheEntriesChecked()
    {
        Assert.That(CliRun.Run(_build).ExitCode, Is.Zero);
        var (code, output, error) = OnTerminal(["cache", "verify", "--cache", _dir["cache"]]);
        Assert.That(code, Is.Zero, error);
        Assert.That(error, Does.Contain("\r  verifying [##############################] 2/2 entries "));
        Assert.That(output.ReplaceLineEndings("\n"), Does.EndWith("2 entries checked, 0 damaged\n"));
    }

    [Test]
    public void Piped_NoProgressIsWritten()
    {
        var build = CliRun.Run(_build);
        var verify = CliRun.Run("cache", "verify", "--cache", _dir["cache"]);
        Assert.That((build.ExitCode, verify.ExitCode), Is.EqualTo((0, 0)), build + "\n" + verify);
        Assert.That(build.Error + verify.Error, Is.Empty);
        Assert.That(build.Out + verify.Out, Does.Not.Contain("\r"));
        Assert.That(verify.Out.Split('\n')[^2], Is.EqualTo("2 entries checked, 0 damaged"));
    }

    private static (int Code, string Output, string Error) OnTerminal(string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = Program.Run(args, new CliConsole(output, error, isInteractive: true));
        return (code, output.ToString(), error.ToString());
    }
}
