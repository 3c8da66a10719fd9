using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18: an absolute ARCHIVE inside --game was refused as "must be a path inside G" although it is; and <c>ls</c>
/// needed a --mod even to list the original (to find an entry's index). Both work now.
/// </summary>
public sealed class ArchivePathTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-archive-path");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void CatAndLs_AbsoluteArchivePathInsideTheGame_AreThoseOfTheRelativePath()
    {
        var absolute = Path.Combine(Game, "data", "textures.afs");
        var relative = CliRun.Run("ls", "--game", Game, "--mod", Hd, "--no-cache", "data/textures.afs");
        var ls = CliRun.Run("ls", "--game", Game, "--mod", Hd, "--no-cache", absolute);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out, Is.EqualTo(relative.Out));

        var cat = CliRun.Run("cat", "--game", Game, "--mod", Hd, "--no-cache", absolute, "-o", _dir["absolute.afs"]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(CliRun.Run("cat", "--game", Game, "--mod", Hd, "--no-cache", "data/textures.afs", "-o", _dir["relative.afs"]).ExitCode, Is.Zero);
        Assert.That(File.ReadAllBytes(_dir["absolute.afs"]), Is.EqualTo(File.ReadAllBytes(_dir["relative.afs"])));
    }

    [Test]
    public void Cat_AbsoluteArchivePathOutsideTheGame_ExitsOneSayingSo()
    {
        var outside = _dir.Write("other/ui.zip", File.ReadAllBytes(Path.Combine(Game, "data", "ui.zip")));
        var result = CliRun.Run("cat", "--game", Game, "--mod", Hd, "--no-cache", outside, "-o", _dir["out.zip"]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(
            $"archiveemu cat: {outside}: not inside the game folder {Game}; give a file of the game, relative to it (such as data/textures.afs) or inside it\n"),
            result.ToString());
        Assert.That(File.Exists(_dir["out.zip"]), Is.False);
    }

    [Test]
    public void Ls_WithoutAnyMod_ListsTheOriginal()
    {
        var result = CliRun.Run("ls", "--game", Game, "--no-cache", "data/ui.zip");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error, Is.Empty);
        Assert.That(result.Out.ReplaceLineEndings("\n"), Is.EqualTo(
            $"data/ui.zip  zip  2 entries  {new FileInfo(Path.Combine(Game, "data", "ui.zip")).Length} bytes\n"
            + " index        size  state     origin            rule                          name\n"
            + "     0        3000  original  original          -                             textures/button.dds\n"
            + "     1          13  original  original          -                             layout.txt\n"));
    }
}
