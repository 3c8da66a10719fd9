using System.Text;
using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 31 through <c>archiveemu mount</c>: a Persona mod's <c>P5REssentials/CPK</c> file is served inside the CPK (no stray
/// <c>P5REssentials/</c> folder), its script compiled in the game and that script's dummy are not applied (the game's file is
/// served as it is), and the log says so once.
/// </summary>
[NonParallelizable]
public sealed class MountNotAppliedTests
{
    private static readonly byte[] Script = TestData.Random(2, 50), Font = TestData.Random(3, 120);
    private TempDirectory _dir = null!;

    private string MountPoint => _dir["mnt"];

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _dir = new TempDirectory("mount-not-applied");
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT", "FONT0.FNT", TestData.Random(1, 100)), new("field", "f007.bf", Script)]));
        _dir.Write("mod/ModConfig.json", Encoding.UTF8.GetBytes("""{ "ModId": "p5r.scripts" }"""));
        _dir.Write("mod/FEmulator/BF/f007.flow", Encoding.UTF8.GetBytes("void init_hook() { }"));
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/field/f007.bf", []);
        _dir.Write("mod/P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT", Font);
        Directory.CreateDirectory(MountPoint);
    }

    [TearDown]
    public void DeleteGame()
    {
        if (_dir is null)
            return;
        if (MountPointState.IsMounted(MountPoint) || LibFuseProbe.IsDeadMount(MountPoint))
            ExternalTool.Run("fusermount3", "-u", "-z", MountPoint);
        _dir.Dispose();
    }

    [Test]
    public void Mount_ServesTheEssentialsFileInTheCpk_LeavesTheDummyOut_AndLogsWhatIsNotAppliedOnce()
    {
        using var host = HostProcess.StartCli(MountPoint, "mount", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", MountPoint).WaitMounted();
        var read = CpkIndependentReader.Read(Path.Combine(MountPoint, "CPK/EN.CPK"));
        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)),
            Is.EqualTo(new[] { ("FONT/FONT0.FNT", AfsIndependentReader.Sha256(Font)), ("field/f007.bf", AfsIndependentReader.Sha256(Script)) }));
        Assert.That(Directory.EnumerateFileSystemEntries(MountPoint).Select(Path.GetFileName), Is.EqualTo(new[] { "CPK" }), "no stray P5REssentials/");
        // Logged just after the "mounted" line, so possibly after the mount was ready.
        host.OutputOnce("not applied: mod: 1 file(s) in FEmulator/BF/", TimeSpan.FromSeconds(10));
        var lines = host.OutputOnce("not applied: mod: 1 file(s) in P5REssentials/CPK/EN.CPK/", TimeSpan.FromSeconds(10)).Split('\n');
        Assert.That(lines.Count(l => l.Contains("not applied: mod: 1 file(s) in FEmulator/BF/")), Is.EqualTo(1), host.Output);
        Assert.That(lines.Count(l => l.Contains("not applied: mod: 1 file(s) in P5REssentials/CPK/EN.CPK/")), Is.EqualTo(1), host.Output);

        // A hot reload logs only what is new: Ryo audio added later, once; the script's line is not repeated.
        _dir.Write("mod/ryo/p5r/bgm/1.hca", [1]);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!host.Output.Contains("hot reload: not applied: mod: 1 file(s) in ryo/") && clock.Elapsed < TimeSpan.FromSeconds(15))
            Thread.Sleep(100);
        lines = host.Output.Split('\n');
        Assert.That(lines.Count(l => l.Contains("not applied: mod: 1 file(s) in ryo/")), Is.EqualTo(1), host.Output);
        Assert.That(lines.Count(l => l.Contains("not applied: mod: 1 file(s) in FEmulator/BF/")), Is.EqualTo(1), host.Output);
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }
}
