using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18, the <c>cat -o</c> rule applied to <c>vfs -o</c>: an output onto the map or one of the files it reads is
/// refused (exit 1) unless --force. vfs has no game or mod folder; a new file beside the sources is fine.
/// </summary>
public sealed class VfsOutputTests
{
    private TempDirectory _dir = null!;
    private string _map = "";

    [SetUp]
    public void CopyFixture()
    {
        _dir = new TempDirectory("cli-vfs-output");
        foreach (var name in new[] { "sample.vfs.json", "texture-a.dds", "texture-b.dds" })
            _dir.Write(name, File.ReadAllBytes(CliRun.Fixture($"vfs/{name}")));
        _map = _dir["sample.vfs.json"];
    }

    [TearDown]
    public void DeleteFixture() => _dir.Dispose();

    [Test]
    public void Vfs_OutputOntoItsMapOrASource_IsRefused_AndTheFileUnchanged()
    {
        foreach (var name in new[] { "texture-b.dds", "sample.vfs.json" })
        {
            var output = _dir[name];
            var before = File.ReadAllBytes(output);
            var result = CliRun.Run("vfs", _map, "-o", output);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(
                $"archiveemu vfs: -o {output}: refused, it is a file this command reads and would overwrite it; write it elsewhere, or add --force\n"),
                result.ToString());
            Assert.That(File.ReadAllBytes(output), Is.EqualTo(before), name);
        }
        Assert.That(Directory.GetFiles(_dir.Path), Has.Length.EqualTo(3), "no temp file left");
    }

    [Test]
    public void Vfs_Force_WritesOverASource_TheVirtualFilesBytes()
    {
        var expected = CliRun.Run("vfs", _map, "-o", _dir["beside.bin"]);
        Assert.That(expected.ExitCode, Is.Zero, expected.ToString());
        var result = CliRun.Run("vfs", _map, "-o", _dir["texture-b.dds"], "--force");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(_dir["texture-b.dds"]), Is.EqualTo(File.ReadAllBytes(_dir["beside.bin"])));
    }
}
