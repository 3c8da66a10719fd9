using System.Text;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// <c>build</c> and <c>cat</c> through a ZIP entry stored deflated that holds a PAK a mod changes inside: the PAK is decoded
/// once (into the cache folder, or with <c>--no-cache</c> a private temporary file) and the ZIP served with it stored as is.
/// </summary>
public sealed class CompressedInnerArchiveTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private static readonly byte[] Kept = DotNetArchiveWriters.Repeat(Encoding.ASCII.GetBytes("a line kept as it was\n"), 200);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-compressed-inner");
        Directory.CreateDirectory(_dir["game/data"]);
        DotNetArchiveWriters.WriteZip(_dir["game/data/pack.zip"],
            ("inner.pak", PakTestWriter.Write(V2, [("a.tmx", Kept), ("b.tmx", TestData.Random(2, 400))]), true), ("readme.txt", Kept, true));
        _dir.Write("mod/data/pack.zip/inner.pak/b.tmx", TestData.Random(4, 444));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [TestCase("--no-cache")]
    [TestCase("--cache")]
    public void BuildAndCat_ServeTheZipWithTheInnerPakChanged_StoredAsIs(string cacheOption)
    {
        string[] cache = cacheOption == "--cache" ? ["--cache", _dir["cache"]] : ["--no-cache"];
        var build = CliRun.Run(["build", "--game", _dir["game"], "--mod", _dir["mod"], .. cache]);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());

        var output = _dir["out.zip"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], .. cache, "data/pack.zip", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        var python = ExternalTool.Python("""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    info = z.getinfo('inner.pak')
    assert info.compress_type == zipfile.ZIP_STORED and info.compress_size == info.file_size, info
    open(sys.argv[2], 'wb').write(z.read('inner.pak'))
    assert z.read('readme.txt') == open(sys.argv[3], 'rb').read()
""", output, _dir["inner.pak"], _dir.Write("kept.txt", Kept));
        Assert.That(python.ExitCode, Is.Zero, python.StdErr);
        Assert.That(PakV2Records.Members(File.ReadAllBytes(_dir["inner.pak"])),
            Is.EqualTo(new[] { ("a.tmx", Kept), ("b.tmx", TestData.Random(4, 444)) }));
        if (cacheOption == "--cache")
            Assert.That(Directory.GetFiles(Path.Combine(_dir["cache"], "decoded"), "*.bin"), Has.Length.EqualTo(1));
    }

    [Test]
    public void Build_ADamagedDeflateStream_IsOneErrorLineNamingTheFile()
    {
        var zip = _dir["game/data/pack.zip"];
        var bytes = File.ReadAllBytes(zip);
        bytes[30 + "inner.pak".Length] = 0x07; // the first entry's deflate stream starts with a block of the reserved type 3
        File.WriteAllBytes(zip, bytes);
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Error.TrimEnd('\n').Split('\n'), Has.Length.EqualTo(1), build.Error);
        Assert.That(build.Error, Does.Contain(zip).And.Contain("deflate stream is damaged"));
    }
}
