using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Metaphor;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 50 through a real mount: the Metaphor-like sample (fixtures/metaphor, its five mods) mounted beside the game; base.cpk read
/// from the mount point is re-read with the independent reader, its Skill.tbl holding both table mods' edits, and the log names
/// the merged table and its mods.
/// </summary>
[NonParallelizable]
public sealed class MetaphorMountTests
{
    private static readonly string[] ModNames = ["metaphor-essentials", "skill-power", "skill-cost", "weapon-stats", "hd-model"];
    private TempDirectory _dir = null!;
    private HostProcess _host = null!;

    [OneTimeSetUp]
    public void Mount()
    {
        LibFuseProbe.RequireTransport("kernel");
        _dir = new TempDirectory("mount-metaphor");
        Directory.CreateDirectory(_dir["mnt"]);
        Directory.CreateDirectory(_dir["cache"]);
        string[] mods = [.. ModNames.Select((m, i) => $"--ArchiveEmu:Mods:{i}={MetaphorSample.Mod(m)}")];
        _host = HostProcess.StartHost(_dir["mnt"], [$"--ArchiveEmu:Game={MetaphorSample.Game}", .. mods, $"--ArchiveEmu:MountPoint={_dir["mnt"]}",
            $"--ArchiveEmu:Cache={_dir["cache"]}", "--ArchiveEmu:Merge=never", "--ArchiveEmu:Fuse=kernel"]).WaitMounted();
    }

    [OneTimeTearDown]
    public void Unmount()
    {
        _host?.Dispose();
        _dir?.Dispose();
    }

    [Test]
    public void BaseCpk_ReadFromTheMount_HoldsTheMergedTableAndTheReplacements()
    {
        var served = MetaphorSample.Entries(Path.Combine(_dir["mnt"], "base.cpk"));
        Assert.That(served[MetaphorSample.SkillTable], Is.EqualTo(MetaphorSample.ExpectedSkills(skillCostLast: true)));
        Assert.That(served[MetaphorSample.Model], Is.EqualTo(MetaphorSample.ModFile("hd-model", $"MFEssentials/CPK/Models/{MetaphorSample.Model}")));
    }

    [Test]
    public void TheLog_NamesTheMergedTableAndItsMods()
    {
        var output = _host.OutputOnce("merged table: base.cpk/COMMON/battle/table/Skill.tbl", TimeSpan.FromSeconds(10));
        Assert.That(output, Does.Contain("merged table: base.cpk/COMMON/battle/table/Skill.tbl from skill-power (2), skill-cost (2); 1 field(s) set by several mods"), output);
    }
}
