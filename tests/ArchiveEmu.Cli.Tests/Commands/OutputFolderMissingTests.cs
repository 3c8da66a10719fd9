using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18: <c>-o</c> into a folder that does not exist said "Could not find a part of the path '…x.zip.22901.tmp'", a
/// name the user never gave. Now one line names the output and the missing folder; nothing is created.
/// </summary>
public sealed class OutputFolderMissingTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-nofolder");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void CatAndVfs_OutputInAMissingFolder_ExitOne_NamingTheFolder_AndNoTempName()
    {
        var output = _dir["missing/deeper/ui.zip"];
        var runs = new[]
        {
            ("cat", CliRun.Run("cat", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/ui-fix"), "--no-cache", "data/ui.zip", "-o", output)),
            ("vfs", CliRun.Run("vfs", CliRun.Fixture("vfs/sample.vfs.json"), "-o", output)),
        };
        foreach (var (command, result) in runs)
        {
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(
                $"archiveemu {command}: {output}: its folder {_dir["missing/deeper"]} does not exist; create it first, or write elsewhere\n"), result.ToString());
        }
        Assert.That(Directory.EnumerateFileSystemEntries(_dir.Path), Is.Empty, "nothing created");
    }
}
