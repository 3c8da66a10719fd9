using System.Diagnostics;
using System.Text;
using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19, <c>mount --ignore-case</c> across a hot reload: each test changes mod files, so each mounts a sample game of its
/// own (<see cref="CaseMountFixture.Mount"/>) and no other test sees its changes, whatever the order. Once per transport.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class IgnoreCaseHotReloadTests(string fuse)
{
    private SampleGame _game = null!;
    private HostProcess _host = null!;

    [SetUp]
    public void MountOwnGame() => (_game, _host) = CaseMountFixture.Mount(fuse, ignoreCase: true);

    [TearDown]
    public void Unmount()
    {
        _host?.Dispose();
        _game?.Dispose();
    }

    [Test]
    public void AfterAHotReload_AWrongCaseNameOfAChangedArchive_ReadsTheNewVersionAsSoonAsTheRightName()
    {
        const string wrong = "Data/TEXTURES.afs";
        var before = File.ReadAllBytes(_game.Mounted(wrong)); // libfuse: this spelling's own inode now holds a size and pages
        _game.AssertServes("data/textures.afs", before);
        File.WriteAllBytes(Path.Combine(_game.Mods[0], "data/textures.afs/0005_hero.dds"), TestSupport.TestData.Random(19, 100_000));
        var clock = Stopwatch.StartNew();
        while (!_game.Serves("data/textures.afs", _game.Mounted("data/textures.afs")))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the mount never served the new version:\n{_host.Output}");
            Thread.Sleep(50);
        }
        // The reload invalidated every spelling the mount was asked by, not only the game's: no wait for attributes to expire.
        var after = File.ReadAllBytes(_game.Mounted(wrong));
        Assert.That(after.Length, Is.Not.EqualTo(before.Length), "the new version's size, not the one this spelling saw before");
        _game.AssertServes("data/textures.afs", after);
    }

    [Test]
    public void AfterAHotReload_AWrongCaseNameOfTheAddedFile_IsFound()
    {
        Assert.That(File.ReadAllBytes(_game.Mounted("DATA/Readme.txt")), Is.Not.Empty, "the folder's index is built before the reload");
        Assert.That(File.Exists(_game.Mounted("DATA/ADDED-LATER.TXT")), Is.False);
        File.WriteAllText(Path.Combine(_game.Mods[1], "data/added-later.txt"), "hot\n");
        var clock = Stopwatch.StartNew();
        while (!File.Exists(_game.Mounted("DATA/ADDED-LATER.TXT")))
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"the added file was never found by a wrong-case name:\n{_host.Output}");
            Thread.Sleep(100);
        }
        Assert.That(File.ReadAllText(_game.Mounted("Data/Added-Later.txt"), Encoding.UTF8), Is.EqualTo("hot\n"));
        Assert.That(Directory.GetFiles(_game.Mounted("data")).Select(Path.GetFileName), Does.Contain("added-later.txt"));
    }
}
