using ArchiveEmu.Core;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48: a mod as downloaded (<c>--mod BigFont.zip</c>) or the game's program (<c>--game …/P5R.exe</c>) said "mod folder
/// not found", true and no help. Each says what it is and what to give instead, in every command and the library.
/// </summary>
public sealed class FileGivenAsFolderTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-file-as-folder");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase("build")]
    [TestCase("ls")]
    public void AZipGivenAsAMod_SaysExtractIt(string command)
    {
        var zip = _dir.Write("BigFont.zip", [0x50, 0x4B, 5, 6]);
        var result = CliRun.Run([command, "--game", Game, "--mod", zip, "--no-cache", .. command == "ls" ? new[] { "data/textures.afs" } : []]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo($"archiveemu {command}: {zip}: a zip archive, not a mod folder: extract it and give the folder it holds\n"));
    }

    [Test]
    public void TheGamesProgramGivenAsTheGame_SaysGiveItsFolder()
    {
        var exe = _dir.Write("P5R/P5R.exe", [0x4D, 0x5A]);
        var result = CliRun.Run("build", "--game", exe, "--mod", Hd, "--no-cache");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo($"archiveemu build: {exe}: a file, not the game folder: give the folder holding it ({_dir["P5R"]})\n"));
    }

    [Test]
    public void TheLibrary_SaysItTheSameWay()
    {
        var zip = _dir.Write("BigFont.7z", [0x37, 0x7A]);
        using var emulator = new ArchiveEmulator(Game);
        Assert.That(() => emulator.AddModFolder(zip), Throws.InstanceOf<DirectoryNotFoundException>().With.Message.EqualTo(
            $"{zip}: a 7z archive, not a mod folder: extract it and give the folder it holds"));
        Assert.That(() => emulator.AddModFolder(_dir["nowhere"]), Throws.InstanceOf<DirectoryNotFoundException>().With.Message.EqualTo(
            $"{_dir["nowhere"]}: mod folder not found"));
    }
}
