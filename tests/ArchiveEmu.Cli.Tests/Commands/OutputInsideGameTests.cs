using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18: <c>cat -o</c> aimed at the game's own archive overwrote it (exit 0). An output inside the game folder or a mod
/// folder, or onto a file the command reads, is refused (exit 1, bad input, like a path that climbs out) unless --force;
/// symlinks and '..' are resolved first.
/// </summary>
public sealed class OutputInsideGameTests
{
    private TempDirectory _dir = null!;
    private string _game = "";
    private string _mod = "";
    private byte[] _originalZip = [];

    [SetUp]
    public void CopyGame()
    {
        _dir = new TempDirectory("cli-output");
        var fixture = CliRun.Fixture("game");
        foreach (var file in Directory.EnumerateFiles(fixture, "*", SearchOption.AllDirectories))
            _dir.Write(Path.Combine("game", Path.GetRelativePath(fixture, file)), File.ReadAllBytes(file));
        _game = _dir["game"];
        _dir.Write("mod/data/ui.zip/layout.txt", "mod layout\n"u8.ToArray());
        _mod = _dir["mod"];
        _originalZip = File.ReadAllBytes(_dir["game/data/ui.zip"]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Cat_OutputIsTheGamesOwnArchive_IsRefused_AndTheArchiveIsUnchanged()
    {
        var target = _dir["game/data/ui.zip"];
        foreach (var output in new[] { target, Path.Combine(_dir["mod"], "..", "game", "data", "ui.zip") })
        {
            var result = Cat(output);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            var that = output == target ? "" : $" (that is {target})";
            Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(
                $"archiveemu cat: -o {output}{that}: refused, it is inside the game folder {_game} and would overwrite the game's files; "
                + "write it elsewhere, or add --force\n"), result.ToString());
            Assert.That(File.ReadAllBytes(target), Is.EqualTo(_originalZip), "the game's archive is untouched");
        }
        Assert.That(Directory.GetFiles(_dir["game/data"]), Is.EquivalentTo(Directory.GetFiles(CliRun.Fixture("game/data")).Select(f => Path.Combine(_dir["game/data"], Path.GetFileName(f)))),
            "no temp file left in the game folder");
    }

    [Test]
    public void Cat_OutputIsANewFileInsideTheGame_OrAModFile_IsRefused_AndNothingIsWritten()
    {
        var newFile = _dir["game/ui-modded.zip"];
        var result = Cat(newFile);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.StartWith($"archiveemu cat: -o {newFile}: refused, it is inside the game folder {_game}"), result.ToString());
        Assert.That(File.Exists(newFile), Is.False);

        var modFile = _dir["mod/data/ui.zip/layout.txt"];
        result = Cat(modFile);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(
            $"archiveemu cat: -o {modFile}: refused, it is inside the mod folder {_mod} and would overwrite the mod's files; "
            + "write it elsewhere, or add --force\n"), result.ToString());
        Assert.That(File.ReadAllBytes(modFile), Is.EqualTo("mod layout\n"u8.ToArray()));
    }

    [Test]
    public void Cat_Force_WritesIntoTheGameFolder_TheEmulatedBytes()
    {
        var expected = Cat(_dir["elsewhere.zip"]);
        Assert.That(expected.ExitCode, Is.Zero, expected.ToString());
        var output = _dir["game/ui-modded.zip"];
        var result = CliRun.Run("cat", "--game", _game, "--mod", _mod, "--no-cache", "data/ui.zip", "-o", output, "--force");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(_dir["elsewhere.zip"])));
        Assert.That(File.ReadAllBytes(_dir["game/data/ui.zip"]), Is.EqualTo(_originalZip));
    }

    [Test]
    public void Cat_OutputReachingTheGameThroughSymlinks_IsRefused()
    {
        LinuxOnly.RequireSymlinks();
        // A link to the game's archive, a link to the game folder, and a game whose archive is a link to another disk.
        Directory.CreateDirectory(_dir["out"]);
        File.CreateSymbolicLink(_dir["out/ui.zip"], _dir["game/data/ui.zip"]);
        Directory.CreateSymbolicLink(_dir["alias"], _game);
        var disk2 = _dir.Write("disk2/ui.zip", _originalZip);
        File.Delete(_dir["game/data/ui.zip"]);
        File.CreateSymbolicLink(_dir["game/data/ui.zip"], disk2);

        foreach (var (output, real, why) in new[]
                 {
                     (_dir["out/ui.zip"], disk2, "a file this command reads and would overwrite it"),
                     (_dir["alias/data/ui.zip"], _dir["game/data/ui.zip"], $"inside the game folder {_game} and would overwrite the game's files"),
                     (disk2, disk2, "a file this command reads and would overwrite it"),
                 })
        {
            var result = Cat(output);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            var that = output == real ? "" : $" (that is {real})";
            Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo($"archiveemu cat: -o {output}{that}: refused, it is {why}; write it elsewhere, or add --force\n"),
                result.ToString());
            Assert.That(File.ReadAllBytes(disk2), Is.EqualTo(_originalZip), output);
        }
        Assert.That(new FileInfo(_dir["out/ui.zip"]).LinkTarget, Is.EqualTo(_dir["game/data/ui.zip"]), "the link is still a link");
    }

    private CliResult Cat(string output) =>
        CliRun.Run("cat", "--game", _game, "--mod", _mod, "--no-cache", "data/ui.zip", "-o", output);
}
