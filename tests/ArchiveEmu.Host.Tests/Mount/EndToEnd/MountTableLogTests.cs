using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 31, "Merged tables", through <c>archiveemu mount</c>: two mods editing a P5R UNIT.TBL are served merged and the
/// log has one line for the table (its path through the CPK, each mod's field count, the contested fields); a hot reload
/// that changes the merge logs the new line once.
/// </summary>
[NonParallelizable]
public sealed class MountTableLogTests
{
    private const string Line = "merged table: CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL from a (1), b (2); 1 field(s) set by several mods";
    private TempDirectory _dir = null!;
    private byte[][] _game = null!;

    private string MountPoint => _dir["mnt"];

    private static byte[][] Copy(byte[][] segments) => segments.Select(s => s.ToArray()).ToArray();

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        _dir = new TempDirectory("mount-table-log");
        _game = [new byte[68 * 4], new byte[2 * 10], new byte[2 * 10], TestData.Random(3, 17), new byte[2 * 10], TestData.Random(4, 20)];
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(_game))]));
        var a = Copy(_game);
        a[0][68 + 22] = 1; // enemy 1's u16 at 22: a and b
        var b = Copy(_game);
        b[0][68 + 23] = 2;
        b[1][0] = 3;
        _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(b));
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
    public void Mount_TwoModsEditingUnitTbl_ServesItMerged_AndLogsOneLineForTheTable_AndANewOneOnReload()
    {
        using var host = HostProcess.StartCli(MountPoint, "mount", "--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache", MountPoint).WaitMounted();
        var mods = new[] { "a", "b" }.Select(m => (m, File.ReadAllBytes(_dir[$"{m}/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL"]))).ToArray();
        var expected = ReferenceTableMerger.MergeTbl(PersonaTableWriter.Tbl(_game), mods, PersonaTableWriter.P5RLayouts.Unit);
        var entry = CpkIndependentReader.Read(Path.Combine(MountPoint, "CPK/EN.CPK")).Entries.Single();
        Assert.That(entry.ContentSha256, Is.EqualTo(AfsIndependentReader.Sha256(expected)));
        host.OutputOnce(Line, TimeSpan.FromSeconds(10)); // logged just after the "mounted" line, so possibly after the mount was ready
        Assert.That(host.Output.Split('\n').Count(l => l.Contains("merged table: ")), Is.EqualTo(1), host.Output);
        Assert.That(host.Output.Split('\n').Count(l => l.EndsWith(Line, StringComparison.Ordinal)), Is.EqualTo(1), host.Output);

        var b = Copy(_game);
        b[0][68 + 23] = 2;
        b[1][0] = 3;
        b[4][2] = 4; // a third field of b's
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(b));
        const string reloaded = "hot reload: merged table: CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL from a (1), b (3); 1 field(s) set by several mods";
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!host.Output.Contains(reloaded) && clock.Elapsed < TimeSpan.FromSeconds(15))
            Thread.Sleep(100);
        Assert.That(host.Output.Split('\n').Count(l => l.EndsWith(reloaded, StringComparison.Ordinal)), Is.EqualTo(1), host.Output);
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }
}
