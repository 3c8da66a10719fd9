using System.Security.Cryptography;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 21, "ACB + AWB": a game with <c>sound/bgm.awb</c> and its <c>sound/bgm.acb</c>, a mod changing one AWB entry.
/// <c>cat</c> serves the ACB rebuilt for the emulated AWB (checked by the independent @UTF reader), <c>build</c> reports it
/// as an emulated file that follows the AWB, and a cached layout serves the same bytes.
/// </summary>
public sealed class AcbCommandsTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-acb");
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(Enumerable.Range(0, 4).Select(i => (byte[]?)TestData.Random(400 + i, 300 + 50 * i)).ToList()));
        _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("mod/sound/bgm.awb/2.hca", TestData.Random(410, 9000));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Cat_TheAcb_HasTheEmulatedAwbsHeaderCopyAndMd5_AndAllElseUnchanged()
    {
        var acb = Cat("sound/bgm.acb", "--no-cache");
        var awb = File.ReadAllBytes(Cat("sound/bgm.awb", "--no-cache"));
        Assert.That(AwbIndependentReader.Read(_dir.Write("check.awb", awb)).Entries[2].Sha256,
            Is.EqualTo(Convert.ToHexStringLower(SHA256.HashData(TestData.Random(410, 9000)))));
        AcbFollowCheck.AssertFollows(_dir["game/sound/bgm.acb"], acb, awb, _dir);
    }

    [Test]
    public void Build_TheGame_ReportsTheAcbAsEmulatedAndFollowingTheAwb()
    {
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain("sound/bgm.acb  (acb)\n  follows    sound/bgm.awb (its AWB header copy and hash rebuilt to match)\n"), build.Out);
        Assert.That(build.Out, Does.Contain("sound/bgm.awb  (awb)\n  entries    1 replaced"), build.Out);
        Assert.That(build.Out, Does.Contain("routes resolved in").And.Contain("2 archives"), build.Out);
    }

    [Test]
    public void BuildJson_NamesTheAwbTheAcbFollows()
    {
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "--json");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        using var doc = JsonDocument.Parse(build.Out);
        var follows = doc.RootElement.GetProperty("archives").EnumerateArray()
            .ToDictionary(a => a.GetProperty("path").GetString()!, a => a.GetProperty("follows").ToString());
        Assert.That(follows, Is.EqualTo(new Dictionary<string, string> { ["sound/bgm.acb"] = "sound/bgm.awb", ["sound/bgm.awb"] = "" }));
    }

    [Test]
    public void BuildWithACache_ThenCat_ServesTheSameAcbFromTheStoredLayout()
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", "never");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        var again = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", "never");
        Assert.That(again.Out, Does.Match(@"sound/bgm\.acb  \(acb\)\n  follows .*\n(  .*\n){3}  built in .*\(layout from the cache"), "no second MD5 pass: the hash is in the stored layout\n" + again.Out);
        Assert.That(File.ReadAllBytes(Cat("sound/bgm.acb", "--cache", cache)), Is.EqualTo(File.ReadAllBytes(Cat("sound/bgm.acb", "--no-cache"))));
    }

    [Test]
    public void LsAndCat_AnAcbCarryingItsAwb_ListAndServeTheEntryAModFolderNamedLikeTheAcbReplaces()
    {
        var entries = Enumerable.Range(0, 3).Select(i => (byte[]?)TestData.Random(420 + i, 200 + i)).ToList();
        var acb = _dir.Write("game/sound/se.acb", AcbTestWriter.Write(new(Name: "se", MemoryAwb: AwbTestWriter.Write(entries))));
        _dir.Write("mod/sound/se.acb/1_step.hca", TestData.Random(430, 777));

        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "sound/se.acb");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var rows = ls.Out.TrimEnd('\n').Split('\n');
        Assert.That(rows.Count(r => r.Contains("replaced  mod", StringComparison.Ordinal)), Is.EqualTo(1), ls.Out);
        Assert.That(rows.Count(r => r.Contains("original  original", StringComparison.Ordinal)), Is.EqualTo(2), ls.Out);

        var after = UtfIndependentReader.Read(Cat("sound/se.acb", "--no-cache"));
        AcbFollowCheck.AssertSameExcept(UtfIndependentReader.Read(acb), after, "AwbFile");
        entries[1] = TestData.Random(430, 777);
        var inner = AwbIndependentReader.Read(_dir.Write("inner.awb", AcbFollowCheck.Hex(after.Rows[0]["AwbFile"])));
        Assert.That(inner.Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Convert.ToHexStringLower(SHA256.HashData(e!)))));
    }

    private string Cat(string archive, params string[] cacheArgs)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], .. cacheArgs, archive, "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return output;
    }
}
