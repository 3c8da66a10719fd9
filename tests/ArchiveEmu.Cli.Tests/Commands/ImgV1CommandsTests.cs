using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 22, IMG v1: a game with <c>models/gta3.img</c> and <c>models/gta3.dir</c>, a mod replacing <c>infernus.txd</c> and
/// adding an entry. <c>cat</c> serves both files (re-read as a pair by ImgV1IndependentReader), <c>ls</c> lists the entries,
/// <c>build</c> reports the .dir as following the .img, and the cache (layout and merged copy) serves the same bytes.
/// </summary>
public sealed class ImgV1CommandsTests
{
    private TempDirectory _dir = null!;
    private List<(string Name, byte[] Data)> _expected = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-imgv1");
        Directory.CreateDirectory(_dir["game/models"]);
        var entries = Enumerable.Range(0, 4).Select(i => ($"e{i}.dff", TestData.Random(500 + i, 700 + 900 * i))).ToList();
        entries.Insert(1, ("infernus.txd", TestData.Random(510, 5000)));
        ImgV1TestWriter.WriteFiles(_dir["game/models"], "gta3", entries);
        _dir.Write("mod/models/gta3.img/infernus.txd", TestData.Random(511, 9000));
        _dir.Write("mod/models/gta3.img/added.ifp", TestData.Random(512, 300));
        entries[1] = ("infernus.txd", TestData.Random(511, 9000));
        entries.Add(("added.ifp", TestData.Random(512, 300)));
        _expected = entries;
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Cat_BothFiles_ReadBackAsAPairWithTheModsEntries()
    {
        AssertPair(Cat("models/gta3.img", "--no-cache"), Cat("models/gta3.dir", "--no-cache"));
    }

    [Test]
    public void Ls_TheImg_ListsTheReplacedAndAddedEntries()
    {
        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "models/gta3.img");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out, Does.StartWith("models/gta3.img  img-v1"), ls.Out);
        Assert.That(ls.Out, Does.Match(@"\n +1 +10240 +replaced +mod +mirror +infernus\.txd\n"), ls.Out);
        Assert.That(ls.Out, Does.Match(@"\n +5 +2048 +added +mod +mirror +added\.ifp\n"), ls.Out);
        Assert.That(ls.Out.TrimEnd('\n').Split('\n').Count(r => r.Contains(" original ", StringComparison.Ordinal)), Is.EqualTo(4), ls.Out);
    }

    [Test]
    public void Build_ReportsTheDirAsFollowingTheImg_InTextAndJson()
    {
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain("models/gta3.dir  (img-v1)\n  follows    models/gta3.img (the IMG v1 directory, rebuilt to match)\n"), build.Out);
        Assert.That(build.Out, Does.Contain("models/gta3.img  (img-v1)\n  entries    1 replaced, 1 added, 0 deleted"), build.Out);

        var json = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        var follows = doc.RootElement.GetProperty("archives").EnumerateArray()
            .ToDictionary(a => a.GetProperty("path").GetString()!, a => a.GetProperty("follows").ToString());
        Assert.That(follows, Is.EqualTo(new Dictionary<string, string> { ["models/gta3.dir"] = "models/gta3.img", ["models/gta3.img"] = "" }));
    }

    [TestCase("never")]
    [TestCase("always")]
    public void BuildWithACache_ThenCat_ServesTheSamePairFromTheCache(string merge)
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", merge);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        AssertPair(Cat("models/gta3.img", "--cache", cache), Cat("models/gta3.dir", "--cache", cache));
    }

    [Test]
    public void AModFileForTheDir_IsOneClearErrorLineNamingIt()
    {
        var whole = _dir.Write("mod/models/gta3.dir", new byte[32]);
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Error.TrimEnd('\n').Split('\n'), Has.Length.EqualTo(1), build.Error);
        Assert.That(build.Error, Does.Contain(whole).And.Contain("models/gta3.img"));
    }

    private void AssertPair(string img, string dir)
    {
        var read = ImgV1IndependentReader.Read(File.ReadAllBytes(img), File.ReadAllBytes(dir));
        Assert.That(read.Select(e => e.Name), Is.EqualTo(_expected.Select(e => e.Name)));
        Assert.That(read.Select(e => e.Bytes), Is.EqualTo(_expected.Select(e => Padded(e.Data))));
    }

    private static byte[] Padded(byte[] data) => [.. data, .. new byte[(2048 - data.Length % 2048) % 2048]];

    private string Cat(string archive, params string[] cacheArgs)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], .. cacheArgs, archive, "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return output;
    }
}
