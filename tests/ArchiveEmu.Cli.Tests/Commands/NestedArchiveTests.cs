using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 19, archives inside archives from the mod path (mirror and FEF layouts): <c>build</c>, <c>cat</c> and <c>ls</c> serve
/// a PAK whose entry holds a PAK a mod changes inside, and a merged copy in the cache goes stale when an inner mod file changes.
/// </summary>
public sealed class NestedArchiveTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("cli-nested");
        _dir.Write("game/data/init.pak", PakTestWriter.Write(V2, [
            ("init/loading.arc", PakTestWriter.Write(V2, [("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(2, 400))])),
            ("init/other.bin", TestData.Random(3, 500)),
        ]));
        _dir.Write("mod/data/init.pak/init/loading.arc/mini_tv.tmx", TestData.Random(4, 444));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void BuildCatLs_ServeTheOuterWithTheInnerEmulated_AndLsSaysNested()
    {
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());

        var inner = InnerMembers(Cat("--no-cache"));
        Assert.That(inner, Is.EqualTo(new[] { ("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(4, 444)) }));

        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/init.pak");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var rows = ls.Out.TrimEnd('\n').Split('\n');
        Assert.That(rows[2], Does.Contain("replaced  nested (mod)").And.EndWith("init/loading.arc"), ls.Out);
        Assert.That(rows[3], Does.Contain("original  original").And.EndWith("init/other.bin"), ls.Out);
    }

    [Test]
    public void MergedCache_AChangedInnerModFile_IsServedAtTheNextCat()
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", "always");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(InnerMembers(Cat("--cache", cache))[1].Bytes, Is.EqualTo(TestData.Random(4, 444)));

        _dir.Write("mod/data/init.pak/init/loading.arc/mini_tv.tmx", TestData.Random(5, 555));
        Assert.That(InnerMembers(Cat("--cache", cache))[1].Bytes, Is.EqualTo(TestData.Random(5, 555)));
    }

    [Test]
    public void StoredLayout_ServesTheBytesAndOriginsOfAParse()
    {
        var cache = _dir["cache"];
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "--merge", "never");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(Cat("--cache", cache), Is.EqualTo(Cat("--no-cache")));
        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache, "data/init.pak");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out.Split('\n')[2], Does.Contain("replaced  nested (mod)"), ls.Out);
    }

    [Test]
    public void CatLs_FefModThroughAPakInsideAPak_TheInnerEntryIsTheModFile_ReadByTheIndependentReader()
    {
        var tv = _dir.Write("fef/FEmulator/PAK/init.pak/init/loading.arc/mini_tv.tmx", TestData.Random(8, 888));
        var outer = _dir["fef-out.pak"];
        var cat = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["fef"], "--no-cache", "data/init.pak", "-o", outer);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());

        var members = PakIndependentReader.Read(outer, "V2");
        Assert.That(members.Select(m => m.Name), Is.EqualTo(new[] { "init/loading.arc", "init/other.bin" }));
        Assert.That(members[1].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(TestData.Random(3, 500))));
        var inner = _dir.Write("fef-inner.pak", PakV2Records.Members(File.ReadAllBytes(outer))[0].Bytes);
        Assert.That(AfsIndependentReader.Sha256(File.ReadAllBytes(inner)), Is.EqualTo(members[0].Sha256));
        Assert.That(PakIndependentReader.Read(inner, "V2").Select(m => (m.Name, m.Sha256)), Is.EqualTo(new[]
        {
            ("a.tmx", AfsIndependentReader.Sha256(TestData.Random(1, 300))), ("mini_tv.tmx", AfsIndependentReader.Sha256(File.ReadAllBytes(tv))),
        }));

        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["fef"], "--no-cache", "data/init.pak");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out.Split('\n')[2], Does.Contain("replaced  nested (fef)").And.EndWith("init/loading.arc"), ls.Out);
    }

    [Test]
    public void Build_ThroughAnEntryThatIsNoArchive_IsOneErrorLineNamingThePath()
    {
        _dir.Write("mod/data/init.pak/init/other.bin/x.bin", [1]);
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Error.TrimEnd('\n').Split('\n'), Has.Length.EqualTo(1), build.Error);
        Assert.That(build.Error, Does.Contain("data/init.pak/init/other.bin").And.Contain("not an archive format ArchiveEmu knows"));
    }

    [Test]
    public void Build_ADamagedOuterOriginal_IsReportedBesideTheOthers_NotARoutingError()
    {
        var tar = _dir["game/data/bundle.tar"];
        DotNetArchiveWriters.WriteTar(tar, ("pack/in.pak", PakTestWriter.Write(V2, [("x", TestData.Random(6, 5000))])));
        File.WriteAllBytes(tar, File.ReadAllBytes(tar)[..3000]); // cut inside the inner PAK's bytes: the tar's magic is intact
        _dir.Write("mod/data/bundle.tar/pack/in.pak/x", TestData.Random(7, 10));
        var build = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Out, Does.Contain("data/init.pak  (pak)\n  entries    1 replaced, 0 added, 0 deleted"), build.ToString());
        Assert.That(build.Out, Does.Contain("data/bundle.tar  (tar)\n  failed     "), build.ToString());
        Assert.That(build.Error, Does.StartWith("archiveemu build: 1 of 2 archives failed (data/bundle.tar); "), build.ToString());
    }

    private byte[] Cat(params string[] cacheArgs)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.pak"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], .. cacheArgs, "data/init.pak", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return File.ReadAllBytes(output);
    }

    // The inner PAK's members, by a walk of V2 records (PakV2Records) that must cover each PAK exactly.
    private static List<(string Name, byte[] Bytes)> InnerMembers(byte[] outer) =>
        PakV2Records.Members(PakV2Records.Members(outer).Single(m => m.Name == "init/loading.arc").Bytes);
}
