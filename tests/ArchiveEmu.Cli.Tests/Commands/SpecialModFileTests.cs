using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48: downloaded mods carry FIFOs and links to devices (tar and 7z keep them). A FIFO as a whole-file override was
/// served as an empty file with exit 0; as an archive entry, an empty entry. Now only regular files are served: one line naming
/// the file and what it is, exit 1, nothing written.
/// </summary>
public sealed class SpecialModFileTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("FIFOs and /dev/zero");
        _dir = new TempDirectory("cli-special-mod-file");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    // (A link to /dev/zero leads out of the mod: refused before this, as every such link is.)
    private string Fifo(string relative)
    {
        var path = _dir[$"mod/{relative}"];
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Assert.That(ExternalTool.Run("mkfifo", path).ExitCode, Is.Zero);
        return path;
    }

    [TestCase("a FIFO", "data/readme.txt")]
    [TestCase("a FIFO", "data/textures.afs/3.dds")]
    public void CatAndBuild_AModFileThatIsNotARegularFile_OneLineNamingIt_Exit1(string kind, string relative)
    {
        var special = Fifo(relative);
        var target = relative.StartsWith("data/textures.afs") ? "data/textures.afs" : relative;
        var output = _dir["out.bin"];
        string[] game = ["--game", CliRun.Fixture("game"), "--mod", _dir["mod"], "--no-cache"];

        var cat = CliRun.Run(["cat", .. game, target, "-o", output]);
        var build = CliRun.Run(["build", .. game]);

        var line = $"{special}: {kind}, not a regular file; only regular files are served\n";
        Assert.That((cat.ExitCode, cat.Error), Is.EqualTo((1, "archiveemu cat: " + line)), cat.ToString());
        Assert.That((build.ExitCode, build.Error), Is.EqualTo((1, "archiveemu build: " + line)), build.ToString());
        Assert.That(File.Exists(output), Is.False);
    }
}
