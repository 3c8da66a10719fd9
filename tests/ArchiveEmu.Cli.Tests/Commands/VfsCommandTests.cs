using System.Security.Cryptography;

namespace ArchiveEmu.Cli.Tests.Commands;

public sealed class VfsCommandTests
{
    private string _temp = "";

    [SetUp]
    public void CreateTemp() => Directory.CreateDirectory(_temp = Path.Combine(Path.GetTempPath(), $"archiveemu-vfs-{Guid.NewGuid():N}"));

    [TearDown]
    public void DeleteTemp() => Directory.Delete(_temp, recursive: true);

    [Test]
    public void Vfs_SampleFixture_ChecksOutAndWritesTheExactBytes()
    {
        var output = Path.Combine(_temp, "sample.bin");
        var result = CliRun.Run("vfs", CliRun.Fixture("vfs/sample.vfs.json"), "-o", output);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out, Does.Contain("agree").And.Contain("match"));
        // The bytes, rebuilt here from the fixture files by hand.
        var a = File.ReadAllBytes(CliRun.Fixture("vfs/texture-a.dds"));
        var b = File.ReadAllBytes(CliRun.Fixture("vfs/texture-b.dds"));
        var expected = "ARCHIVEEMU-SAMPLE\n"u8.ToArray().Concat(a[..4096]).Concat(new byte[2048]).Concat(b).Concat(a[4096..12288]).Concat("END\n"u8.ToArray()).ToArray();
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(expected));
        Assert.That(Directory.GetFiles(_temp), Has.Length.EqualTo(1), "no temp file left beside the output");
    }

    [Test]
    public void Vfs_WrongExpectedHash_ExitsOneAndSaysMismatch()
    {
        var map = CopyFixtureWithMap(m => m.Replace("\"sha256\": \"", "\"sha256\": \"00"));
        var result = CliRun.Run("vfs", map);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Does.Contain("MISMATCH"));
        Assert.That(result.Error.Trim().Split('\n'), Has.Length.EqualTo(1));
    }

    [Test]
    public void Vfs_PathLeavingTheMapFolder_ExitsOneWithOneLineNamingIt()
    {
        var map = CopyFixtureWithMap(m => m.Replace("\"file\": \"texture-b.dds\"", "\"file\": \"../../etc/passwd\""));
        var result = CliRun.Run("vfs", map);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.Contain("leads outside").And.Contain("../../etc/passwd"));
        Assert.That(result.Error.Trim().Split('\n'), Has.Length.EqualTo(1));
    }

    [Test]
    public void Vfs_SliceLongerThanItsFile_ExitsOneNamingTheFile()
    {
        var map = CopyFixtureWithMap(m => m.Replace("\"length\": 8192", "\"length\": 99999"));
        var result = CliRun.Run("vfs", map);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.Contain("texture-a.dds").And.Contain("past the end"));
    }

    [Test]
    public void Vfs_NotJson_ExitsOne()
    {
        var map = Path.Combine(_temp, "bad.json");
        File.WriteAllText(map, "{ not json");
        var result = CliRun.Run("vfs", map);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Does.Contain("bad.json").And.Contain("not valid JSON"));
    }

    [TestCase]
    [TestCase("a.json", "b.json")]
    [TestCase("--frobnicate", "a.json")]
    public void Vfs_BadUsage_ExitsTwoWithUsage(params string[] args)
    {
        var result = CliRun.Run(new[] { "vfs" }.Concat(args).ToArray());
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error, Does.Contain("usage: archiveemu vfs"));
    }

    [Test]
    public void UnknownCommand_ExitsTwo()
    {
        Assert.That(CliRun.Run("frobnicate").ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run().ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run("--help").ExitCode, Is.Zero);
    }

    private string CopyFixtureWithMap(Func<string, string> edit)
    {
        foreach (var name in new[] { "texture-a.dds", "texture-b.dds" })
            File.Copy(CliRun.Fixture($"vfs/{name}"), Path.Combine(_temp, name));
        var map = Path.Combine(_temp, "edited.vfs.json");
        var text = edit(File.ReadAllText(CliRun.Fixture("vfs/sample.vfs.json")));
        Assert.That(text, Is.Not.EqualTo(File.ReadAllText(CliRun.Fixture("vfs/sample.vfs.json"))), "the edit must change the map");
        File.WriteAllText(map, text);
        return map;
    }

    [Test]
    public void SampleFixture_HashInMap_IsTheHashOfTheDescribedBytes()
    {
        // Guards the fixture itself: make_sample.py and the files must agree.
        var a = File.ReadAllBytes(CliRun.Fixture("vfs/texture-a.dds"));
        var b = File.ReadAllBytes(CliRun.Fixture("vfs/texture-b.dds"));
        var bytes = "ARCHIVEEMU-SAMPLE\n"u8.ToArray().Concat(a[..4096]).Concat(new byte[2048]).Concat(b).Concat(a[4096..12288]).Concat("END\n"u8.ToArray()).ToArray();
        Assert.That(File.ReadAllText(CliRun.Fixture("vfs/sample.vfs.json")), Does.Contain(Convert.ToHexStringLower(SHA256.HashData(bytes))));
    }
}
