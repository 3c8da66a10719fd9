using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 31, "Done when", through a real mount: the P5R-style sample (fixtures/persona, all eleven mods in order) mounted beside
/// the game; both CPKs read from the mount point are re-read with the independent readers (<see cref="PersonaSample"/>), the
/// mount shows only the game's files, and the log says once what is not applied.
/// </summary>
[TestFixture("kernel", "en")]
[TestFixture("libfuse", "en")]
[TestFixture("kernel", "es")]
[NonParallelizable]
public sealed class PersonaMountTests(string fuse, string language)
{
    private TempDirectory _dir = null!;
    private HostProcess _host = null!;

    [OneTimeSetUp]
    public void Mount()
    {
        LibFuseProbe.RequireTransport(fuse);
        _dir = new TempDirectory("mount-persona");
        Directory.CreateDirectory(_dir["mnt"]);
        Directory.CreateDirectory(_dir["cache"]);
        string[] mods = [.. PersonaSample.Mods.Select((m, i) => $"--ArchiveEmu:Mods:{i}={m}")];
        _host = HostProcess.StartHost(_dir["mnt"], [$"--ArchiveEmu:Game={PersonaSample.Game}", .. mods, $"--ArchiveEmu:MountPoint={_dir["mnt"]}",
            $"--ArchiveEmu:Cache={_dir["cache"]}", "--ArchiveEmu:Merge=never", $"--ArchiveEmu:Fuse={fuse}", $"--ArchiveEmu:Language={language}"]).WaitMounted();
    }

    [OneTimeTearDown]
    public void Unmount()
    {
        _host?.Dispose();
        _dir?.Dispose();
    }

    private string Mounted(string relative) => Path.Combine(_dir["mnt"], relative);

    [Test]
    public void BaseCpk_ReadFromTheMount_AgreesWithTheIndependentReaders() =>
        PersonaSample.AssertBaseCpk(Mounted("CPK/BASE.CPK"), language);

    [Test]
    public void EnCpk_ReadFromTheMount_AgreesWithTheIndependentReaders() =>
        PersonaSample.AssertEnCpk(Mounted("CPK/EN.CPK"), language, _dir);

    [Test]
    public void TheMount_ListsOnlyTheGamesFiles_NoLayoutFolderOfAMod()
    {
        Assert.That(Directory.EnumerateFileSystemEntries(_dir["mnt"]).Select(Path.GetFileName).Order(), Is.EqualTo(new[] { "CPK", "P5R.exe" }),
            "no stray P5REssentials/, FEmulator/, bgme/ or CRIFsV2Hok/");
        Assert.That(Directory.EnumerateFileSystemEntries(Mounted("CPK")).Select(Path.GetFileName).Order(), Is.EqualTo(new[] { "BASE.CPK", "EN.CPK" }));
    }

    [Test]
    public void TheLog_SaysOncePerFolderWhatIsNotApplied()
    {
        foreach (var folder in new[] { "script-only: 1 file(s) in FEmulator/BF/", "script-only: 1 file(s) in bgme/", "misspelled: 1 file(s) in CRIFsV2Hok/" })
            _host.OutputOnce($"not applied: {folder}", TimeSpan.FromSeconds(10)); // logged just after the "mounted" line
        var lines = _host.Output.Split('\n');
        Assert.That(lines.Count(l => l.Contains("not applied: script-only: 1 file(s) in FEmulator/BF/")), Is.EqualTo(1), _host.Output);
        Assert.That(lines.Count(l => l.Contains("not applied: script-only: 1 file(s) in bgme/")), Is.EqualTo(1), _host.Output);
        Assert.That(lines.Count(l => l.Contains("not applied: misspelled: 1 file(s) in CRIFsV2Hok/")), Is.EqualTo(1), _host.Output);
    }
}
