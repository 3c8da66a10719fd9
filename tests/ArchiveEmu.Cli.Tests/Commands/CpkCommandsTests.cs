using System.Security.Cryptography;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 21: a named CPK in a game folder (<c>data/data.cpk</c>) and a mirror mod replacing <c>battle/tex.dds</c> in it:
/// build, cat, ls and build --merge serve it, every emulated CPK re-read by the independent reader entry by entry.
/// </summary>
public sealed class CpkCommandsTests
{
    private static readonly List<CpkTestWriter.NamedEntry> Entries =
    [
        new("battle", "tex.dds", TestData.Random(1, 3000)),
        new("battle", "zz.bin", TestData.Random(2, 5000)),
        new("field", "m01.bin", TestData.Random(3, 10)),
        new("", "root.txt", TestData.Random(4, 0x800)),
    ];

    private static readonly byte[] ModTex = TestData.Random(5, 4321);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-cpk");
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed(Entries, new CpkTestWriter.Options(WithEtoc: true)));
        _dir.Write("mod/data/data.cpk/battle/tex.dds", ModTex);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Cat_TheModdedCpk_TheModsEntryIsTheModFile_EveryOtherIsTheOriginals()
    {
        AssertModded(Cat("--no-cache"));
    }

    [Test]
    public void Ls_TheModdedCpk_ListsTheReplacedEntryByPath()
    {
        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/data.cpk");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var rows = ls.Out.TrimEnd('\n').Split('\n');
        Assert.That(rows.Single(r => r.EndsWith("battle/tex.dds", StringComparison.Ordinal)), Does.Contain("replaced  mod"), ls.Out);
        Assert.That(rows.Single(r => r.EndsWith("root.txt", StringComparison.Ordinal)), Does.Contain("original  original"), ls.Out);
    }

    [Test]
    public void Build_TheGame_ReportsTheCpkWithOneReplacedEntry()
    {
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain("data/data.cpk  (cpk)\n  entries    1 replaced, 0 added, 0 deleted"), build.Out);
    }

    [Test]
    public void Build_AnIdOnlyCpkByIdAndAHookLayoutMod_ReportsBothAndCatServesTheirBytes()
    {
        _dir.Write("game/data/ids.cpk", CpkTestWriter.WriteIdOnly([new(0, Entries[2].Content), new(3, Entries[3].Content)]));
        var three = _dir.Write("ids/data/ids.cpk/3_voice.bin", TestData.Random(6, 1000));
        var zz = _dir.Write("hook/CRIFsV2Hook/CPK/anything/Battle/ZZ.bin", TestData.Random(7, 77));
        string[] mods = ["--mod", _dir["ids"], "--mod", _dir["hook"]];

        var build = CliRun.Run(["build", "--game", _dir["game"], .. mods, "--no-cache"]);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain("data/ids.cpk  (cpk)\n  entries    1 replaced, 0 added, 0 deleted"), build.Out);
        Assert.That(build.Out, Does.Contain("data/data.cpk  (cpk)\n  entries    1 replaced, 0 added, 0 deleted"), build.Out);
        Assert.That(build.Out, Does.Contain("CRIFsV2Hook/CPK/anything"), build.Out);

        var ids = CpkIndependentReader.Read(Cat("data/ids.cpk", mods));
        Assert.That(ids.Entries.Select(e => (e.Id, e.ContentSha256)), Is.EqualTo(new[] { (0L, Sha(Entries[2].Content)), (3L, Sha(File.ReadAllBytes(three))) }));
        var named = CpkIndependentReader.Read(Cat("data/data.cpk", mods));
        Assert.That(named.Entries.Select(e => (e.Path, e.ContentSha256)), Is.EqualTo(Entries.Select(e => (e.DirName.Length == 0 ? e.FileName : $"{e.DirName}/{e.FileName}",
            Sha(e.FileName == "zz.bin" ? File.ReadAllBytes(zz) : e.Content)))));
    }

    [TestCase("always")]
    [TestCase("never")]
    public void BuildMerge_ThenCatFromTheCache_ServesTheSameModdedCpk(string merge)
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", merge);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        var cached = Cat("--cache", cache);
        Assert.That(File.ReadAllBytes(cached), Is.EqualTo(File.ReadAllBytes(Cat("--no-cache"))));
        AssertModded(cached);
    }

    private static void AssertModded(string cpk)
    {
        var read = CpkIndependentReader.Read(cpk);
        Assert.That(read.Entries.Select(e => e.Path), Is.EqualTo(new[] { "battle/tex.dds", "battle/zz.bin", "field/m01.bin", "root.txt" }));
        Assert.That(read.Entries.Select(e => e.ContentSha256), Is.EqualTo(new[]
            { Sha(ModTex), Sha(Entries[1].Content), Sha(Entries[2].Content), Sha(Entries[3].Content) }));
        Assert.That(read.Entries[0].FileSize, Is.EqualTo(ModTex.Length));
    }

    private string Cat(string route, string[] mods)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.cpk"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], .. mods, "--no-cache", route, "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return output;
    }

    private string Cat(params string[] cacheArgs)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.cpk"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], .. cacheArgs, "data/data.cpk", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return output;
    }

    private static string Sha(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
