using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48: <c>--cache</c> naming a file. <c>build</c> said .NET's "The file '…' already exists"; <c>cat</c> read around it.
/// Now every command that opens the cache stops with one line naming the file, and leaves it alone.
/// </summary>
public sealed class CacheThatIsAFileTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFile()
    {
        _dir = new TempDirectory("cli-cache-file");
        _dir.Write("notes.txt", "mine"u8.ToArray());
    }

    [TearDown]
    public void Delete() => _dir?.Dispose();

    [TestCase("build")]
    [TestCase("cat", "data/readme.txt")]
    [TestCase("ls", "data/textures.afs")]
    public void OneLine_Exit1_TheFileUntouched(string command, params string[] rest)
    {
        string file = _dir["notes.txt"];
        var result = CliRun.Run([command, "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/hd-textures"), "--cache", file, .. rest]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Is.Empty);
        Assert.That(result.Error, Is.EqualTo($"archiveemu {command}: {file}: the cache folder is a file, not a folder; give the cache a folder of its own\n"));
        Assert.That(File.ReadAllText(file), Is.EqualTo("mine"));
    }
}
